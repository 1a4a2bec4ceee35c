import { parentPort } from 'node:worker_threads';
import { collectGarbage } from '../lib/memory-relief.js';
import { hasUnstorableText } from '../lib/storable-text.js';
import { parseFrameJson } from './frame-json.js';
import type { FrameReply, FrameRequest } from './frame-reader-protocol.js';

// The frame reader's thread (realtime/frame-reader.ts): the same checks as for any frame, off the event loop.
// Nothing here may import @enishi/contract: under tsx a worker resolves it to its build, which unit tests run
// without (CI runs them before building).
const port = parentPort;
if (!port) throw new Error('frame-reader-worker runs only as a worker thread');

port.on('message', (request: FrameRequest) => {
  const frame = parseFrameJson(Buffer.from(request.bytes), request.isBinary);
  const reply: FrameReply = { id: request.id, frame, unstorable: frame !== null && hasUnstorableText(frame) };
  port.postMessage(reply);
  // A frame leaves its buffer, a string twice its size and the parsed copy behind; left to V8 they pile up
  // through a flood (RSS past 1 GB). Collected here, off the event loop, at once.
  collectGarbage();
});
