import type { RawData, WebSocket } from 'ws';

/** No client frame nests deeper than this (a text frame is an object holding an array: depth 2). */
export const MAX_FRAME_DEPTH = 8;

/**
 * True when the JSON text never nests deeper than `maxDepth`, found in one pass without parsing, so a
 * frame of millions of brackets costs a scan instead of a parser's time and memory. Strings are skipped
 * (a bracket inside one does not count). The server's bounded JSON parser, once there, does the same.
 */
export function withinJsonDepth(text: string, maxDepth: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i += 1) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i += 1; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      depth += 1;
      if (depth > maxDepth) return false;
    } else if (c === 0x5d || c === 0x7d) depth -= 1;
  }
  return true;
}

// U+0000 and a lone surrogate cannot be stored in a PostgreSQL text column.
const UNSTORABLE = /\0|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** True when some string in the parsed frame (a key or a value) holds a character the database refuses. */
export function hasUnstorableText(value: unknown): boolean {
  if (typeof value === 'string') return UNSTORABLE.test(value);
  if (Array.isArray(value)) return value.some(hasUnstorableText);
  if (typeof value === 'object' && value !== null) {
    return Object.entries(value).some(([key, item]) => UNSTORABLE.test(key) || hasUnstorableText(item));
  }
  return false;
}

/** A client frame as an object, or null for binary, malformed or too deeply nested JSON. */
export function parseFrameJson(data: RawData, isBinary: boolean): Record<string, unknown> | null {
  if (isBinary) return null;
  const text = data.toString();
  if (!withinJsonDepth(text, MAX_FRAME_DEPTH)) return null;
  try {
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
