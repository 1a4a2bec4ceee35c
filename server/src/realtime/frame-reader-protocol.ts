/** What the main thread asks of the frame reader worker (realtime/frame-reader.ts), and its answer. */
export interface FrameRequest {
  id: number;
  /** The frame's bytes, handed over (transferred), not copied. */
  bytes: ArrayBuffer;
  isBinary: boolean;
}

export interface FrameReply {
  id: number;
  /** The frame as an object, or null for binary, malformed or too deeply nested JSON. */
  frame: Record<string, unknown> | null;
  /** The frame holds text the database cannot store (U+0000, a lone surrogate). */
  unstorable: boolean;
}
