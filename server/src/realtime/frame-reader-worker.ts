import { parentPort, workerData } from 'node:worker_threads';
import { lowerThisThread } from '../lib/background-priority.js';
import { collectGarbage } from '../lib/memory-relief.js';
import { hasUnstorableText } from '../lib/storable-text.js';
import { parseFrameJson } from './frame-json.js';
import {
  ownBuffer,
  PICTURE_READ,
  type FrameReply,
  type FrameRequest,
  type PictureRule,
} from './frame-reader-protocol.js';

// The frame reader's thread (realtime/frame-reader.ts): the same checks as for any frame, off the event loop.
// Nothing here may import @enishi/contract: under tsx a worker resolves it to its build, which unit tests run
// without (CI runs them before building). The picture rule comes from the main thread instead.
const port = parentPort;
if (!port) throw new Error('frame-reader-worker runs only as a worker thread');
const rule = workerData as PictureRule;
// Bulk work: its frames wait for a core while messages are delivered (lib/background-priority.ts).
lowerThisThread();

const picturePattern = new RegExp(rule.pattern.source, rule.pattern.flags);

/** The bytes of one data URL the contract accepts, in a buffer of their own; null when it is refused. */
function pictureBytes(dataUrl: string): ArrayBuffer | null {
  if (dataUrl.length > rule.maxLength || !picturePattern.test(dataUrl)) return null;
  return ownBuffer(Buffer.from(dataUrl.slice(dataUrl.indexOf(',') + 1), 'base64'));
}

/**
 * Checks and decodes the pictures of a text frame here: a regular expression over megabytes and the base64
 * decoding took the event loop about 15 ms a picture. Their places in the frame get a short stand-in.
 */
function readPictures(frame: Record<string, unknown>): (ArrayBuffer | null)[] | null {
  const images = frame.image;
  if (frame.type !== 'text' || !Array.isArray(images) || images.length === 0) return null;
  if (!images.every((image) => typeof image === 'string')) return null;
  const pictures = images.map((image) => pictureBytes(image));
  frame.image = images.map((image, i) => {
    if (pictures[i]) return PICTURE_READ;
    // Too long: left whole for the contract's size check (and its message); otherwise malformed.
    return image.length > rule.maxLength ? image : '';
  });
  return pictures;
}

port.on('message', (request: FrameRequest) => {
  const frame = parseFrameJson(Buffer.from(request.bytes), request.isBinary);
  const unstorable = frame !== null && hasUnstorableText(frame);
  const pictures = frame && !unstorable ? readPictures(frame) : null;
  const reply: FrameReply = { id: request.id, frame, unstorable, pictures };
  port.postMessage(
    reply,
    (pictures ?? []).filter((bytes) => bytes !== null),
  );
  // A frame leaves its buffer, a string twice its size and the parsed copy behind; left to V8 they pile up
  // through a flood (RSS past 1 GB). Collected here, off the event loop, at once.
  collectGarbage();
});
