import type { RawData } from 'ws';
import { checkJsonDepth } from '../lib/bounded-json.js';

// Imports nothing of the contract: the frame reader's worker thread runs this too (realtime/frame-reader.ts).

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
