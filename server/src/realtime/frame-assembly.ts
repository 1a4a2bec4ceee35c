import type { WebSocket } from 'ws';

/** What this module uses of ws's Receiver (ws 8); `assembleAsTheyArrive` checks it is there. */
interface ReceiverInternals {
  _payloadLength: number;
  _bufferedBytes: number;
  _buffers: Buffer[];
  getData(this: ReceiverInternals, cb: unknown): void;
  consume(this: ReceiverInternals, n: number): Buffer;
}

/**
 * The frame being assembled: its payload so far. The chunks it was copied from are let go at once (they were
 * the front of the receiver's chunks); `dropped` counts their bytes, which ws still counts as buffered.
 */
interface Assembly {
  bytes: Buffer;
  filled: number;
  dropped: number;
}

/**
 * Copies each frame of `fromBytes` or more into its own buffer as its chunks arrive (64 KiB at a time),
 * instead of all at once when the last one has, as ws does (product.md §15.7 item 5, decision 010). On this
 * kind of machine a 27 MB copy into memory the process has not had before took the event loop 80-110 ms,
 * four of them back to back when a flood began, and every other member's messages waited behind them; in
 * pieces the same work takes a quarter of a millisecond at a time, between other sockets' events.
 */
export function assembleLargeFrames(ws: WebSocket, fromBytes: number, events?: AssemblyEvents): void {
  assembleAsTheyArrive((ws as unknown as { _receiver?: unknown })._receiver, fromBytes, events);
}

/** Told when a large frame begins to arrive (its header has) and when it is whole. */
export interface AssemblyEvents {
  started(): void;
  whole(): void;
}

/** The same on a ws Receiver itself (the tests drive one directly). */
export function assembleAsTheyArrive(receiver: unknown, fromBytes: number, events?: AssemblyEvents): void {
  const internals = receiver as Partial<ReceiverInternals> | null | undefined;
  if (
    typeof internals?._payloadLength !== 'number' ||
    typeof internals._bufferedBytes !== 'number' ||
    !Array.isArray(internals._buffers) ||
    typeof internals.getData !== 'function' ||
    typeof internals.consume !== 'function'
  )
    throw new Error('ws receiver is not as this module knows it');
  const { getData, consume } = internals as ReceiverInternals;
  let assembly: Assembly | null = null;

  // ws calls getData each time bytes arrive while a payload is incomplete, and once more when it is whole.
  internals.getData = function (this: ReceiverInternals, cb: unknown) {
    const length = this._payloadLength;
    if (length >= fromBytes) {
      if (!assembly) {
        assembly = { bytes: Buffer.allocUnsafe(length), filled: 0, dropped: 0 };
        events?.started();
      }
      copyArrived(this._buffers, assembly);
    }
    getData.call(this, cb);
  };

  // Called for the whole payload once it has arrived: by then it is all copied (getData copies first).
  internals.consume = function (this: ReceiverInternals, n: number) {
    const whole = assembly;
    if (!whole || whole.bytes.length !== n) return consume.call(this, n);
    assembly = null;
    this._bufferedBytes -= n;
    dropFront(this._buffers, n - whole.dropped);
    events?.whole();
    return whole.bytes;
  };
}

/**
 * Copies what has arrived of the payload since the last call (it follows what was copied: the chunks left
 * are the payload's, in order, then perhaps the next frame's) and lets go of every chunk copied whole.
 */
function copyArrived(chunks: Buffer[], assembly: Assembly): void {
  const { bytes } = assembly;
  // The bytes of the first chunk copied before, when it was copied only in part.
  let offset = assembly.filled - assembly.dropped;
  while (assembly.filled < bytes.length && chunks.length > 0) {
    const chunk = chunks[0]!;
    const take = Math.min(chunk.length - offset, bytes.length - assembly.filled);
    bytes.set(chunk.subarray(offset, offset + take), assembly.filled);
    assembly.filled += take;
    if (offset + take < chunk.length) return;
    chunks.shift();
    assembly.dropped += chunk.length;
    offset = 0;
  }
}

/** Takes `n` bytes off the front of the receiver's chunks, as ws's own consume does. */
function dropFront(chunks: Buffer[], n: number): void {
  let left = n;
  while (left > 0) {
    const first = chunks[0]!;
    if (first.length <= left) {
      chunks.shift();
      left -= first.length;
    } else {
      chunks[0] = first.subarray(left);
      left = 0;
    }
  }
}
