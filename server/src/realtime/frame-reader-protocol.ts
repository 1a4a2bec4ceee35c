/** What the main thread asks of the frame reader worker (realtime/frame-reader.ts), and its answer. */
export interface FrameRequest {
  id: number;
  /** The frame's bytes, handed over (transferred), not copied. */
  bytes: ArrayBuffer;
  isBinary: boolean;
}

/** The contract's rule for a picture in a text frame, handed to the worker (which imports no contract). */
export interface PictureRule {
  /** The longest data URL allowed, in characters. */
  maxLength: number;
  /** The data URL's pattern (RegExp source and flags). */
  pattern: { source: string; flags: string };
}

/**
 * What stands in a read frame for a picture the worker has decoded: a data URL the contract accepts, so the
 * frame is still checked whole on the main thread, while the picture's bytes travel beside it (`pictures`).
 */
export const PICTURE_READ = 'data:image/jpeg;base64,AA==';

export interface FrameReply {
  id: number;
  /** The frame as an object, or null for binary, malformed or too deeply nested JSON. */
  frame: Record<string, unknown> | null;
  /** The frame holds text the database cannot store (U+0000, a lone surrogate). */
  unstorable: boolean;
  /**
   * For a text frame with pictures: each picture's bytes (handed over, not copied) where the worker checked
   * and decoded it (its place in `frame.image` then holds PICTURE_READ); null where it left the data URL for
   * the contract's check to refuse (a malformed one becomes '').
   */
  pictures: (ArrayBuffer | null)[] | null;
}

/**
 * `bytes` as an ArrayBuffer of their own, to hand to another thread without a copy: their buffer itself when
 * they fill it (large buffers do), else a copy (a slice of Node's shared pool must not be handed over).
 */
export function ownBuffer(bytes: Uint8Array): ArrayBuffer {
  const whole = bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength;
  if (whole && bytes.buffer instanceof ArrayBuffer) return bytes.buffer;
  const copy = new ArrayBuffer(bytes.byteLength);
  new Uint8Array(copy).set(bytes);
  return copy;
}
