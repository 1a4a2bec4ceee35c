import type { RawData, WebSocket } from 'ws';
import { checkJsonDepth } from '../lib/bounded-json.js';

/** No client frame nests deeper than this (a text frame is an object holding an array: depth 2). */
export const MAX_FRAME_DEPTH = 8;

/** A client frame as an object, or null for binary, malformed or too deeply nested JSON. */
export function parseFrameJson(data: RawData, isBinary: boolean): Record<string, unknown> | null {
  if (isBinary) return null;
  const text = data.toString();
  try {
    // Depth first, in one pass: a frame of millions of brackets costs a scan, not a parser's time and memory.
    checkJsonDepth(text, MAX_FRAME_DEPTH);
    const parsed: unknown = JSON.parse(text);
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)
      ? (parsed as Record<string, unknown>)
      : null;
  } catch {
    return null;
  }
}

interface WithReceiver {
  _receiver?: { _maxPayload: number } | null;
}

/**
 * Sets the largest frame this one socket accepts; a bigger one closes it with 1009 as soon as its header
 * arrives, before any of its bytes are held. `ws` has the limit per server only, so this sets its
 * receiver's field (ws 8); the chat-socket tests fail if that field ever moves.
 */
export function limitFrameSize(ws: WebSocket, bytes: number): void {
  const receiver = (ws as unknown as WithReceiver)._receiver;
  if (!receiver || typeof receiver._maxPayload !== 'number')
    throw new Error('ws receiver has no frame limit');
  receiver._maxPayload = bytes;
}
