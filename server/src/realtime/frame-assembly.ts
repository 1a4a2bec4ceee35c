import { createRequire } from 'node:module';
import type { WebSocket } from 'ws';

/** ws's own native helper (a dependency of the server for ws): masks `length` bytes of `source` into `output`. */
const { mask } = createRequire(import.meta.url)('bufferutil') as {
  mask(source: Buffer, mask: Buffer, output: Buffer, offset: number, length: number): void;
};

/** What this module uses of ws's Receiver (ws 8); `assembleAsTheyArrive` checks it is there. */
interface ReceiverInternals {
  _payloadLength: number;
  _bufferedBytes: number;
  _buffers: Buffer[];
  _state: number;
  _fin: boolean;
  _masked: boolean;
  _mask: Buffer | undefined;
  /** The opcode of the message whose fragments are arriving; 0 when none is. */
  _fragmented: number;
  _loop: boolean;
  _errored: boolean;
  destroyed: boolean;
  getData(this: ReceiverInternals, cb: unknown): void;
  consume(this: ReceiverInternals, n: number): Buffer;
  startLoop(this: ReceiverInternals, cb: (error?: Error) => void): void;
  destroy(error: Error): void;
}

/**
 * The frame being assembled. `bytes` is its payload so far, or null when the frame is not kept (its bytes
 * are let go as they arrive) or while that is not known yet (`kept` null: nothing is taken until it is).
 * The chunks taken are let go at once (they were the front of the receiver's chunks); `dropped` counts their
 * bytes, which ws still counts as buffered.
 */
interface Assembly {
  length: number;
  /**
   * The frame's mask turned to start at each byte of four (a chunk may begin anywhere): the payload is unmasked
   * as it is copied, so that ws does not unmask it all at once when whole (27 MB took the event loop 2-12 ms).
   */
  masks: Buffer[] | null;
  kept: boolean | null;
  bytes: Buffer | null;
  filled: number;
  dropped: number;
}

/** What a frame not kept comes out as: no bytes. */
const NOTHING = Buffer.alloc(0);
/** Given to ws as the mask of a payload already unmasked: ws unmasks none that is all zeros. */
const NO_MASK = Buffer.alloc(4);

/**
 * Copies each frame of `fromBytes` or more into its own buffer as its chunks arrive (64 KiB at a time),
 * instead of all at once when the last one has, as ws does (product.md §15.7 item 5, decision 010). On this
 * kind of machine a 27 MB copy into memory the process has not had before took the event loop 80-110 ms,
 * four of them back to back when a flood began, and every other member's messages waited behind them; in
 * pieces the same work takes a quarter of a millisecond at a time, between other sockets' events. A frame
 * that would be refused anyway is not copied at all (`AssemblyEvents.started`).
 */
export function assembleLargeFrames(ws: WebSocket, fromBytes: number, events?: AssemblyEvents): void {
  assembleAsTheyArrive((ws as unknown as { _receiver?: unknown })._receiver, fromBytes, events);
}

/** Told when a large frame begins to arrive (its header has) and when it is whole. */
export interface AssemblyEvents {
  /**
   * A frame of `length` bytes begins to arrive: whether it is kept. One not kept is never copied: its bytes
   * are let go as they arrive and it comes out as a message with none. Only a whole message can be let go
   * (`canLetGo`; a fragment's bytes are part of a message); a fragment is kept whatever the answer. The frame
   * (and what follows it on the socket) waits for an answer that comes later; one that fails keeps it.
   */
  started(length: number, canLetGo: boolean): boolean | Promise<boolean>;
  /** The frame is whole; `kept` as `started` answered. */
  whole(kept: boolean): void;
}

const keepEvery: AssemblyEvents = { started: () => true, whole: () => {} };

/** The ws Receiver with the internals this module reads and replaces, or an error if ws has changed them. */
function knownReceiver(receiver: unknown): ReceiverInternals {
  const internals = receiver as Partial<ReceiverInternals> | null | undefined;
  if (
    typeof internals?._payloadLength !== 'number' ||
    typeof internals._bufferedBytes !== 'number' ||
    typeof internals._state !== 'number' ||
    typeof internals._fin !== 'boolean' ||
    typeof internals._fragmented !== 'number' ||
    typeof internals._masked !== 'boolean' ||
    !Array.isArray(internals._buffers) ||
    typeof internals.getData !== 'function' ||
    typeof internals.consume !== 'function' ||
    typeof internals.startLoop !== 'function' ||
    typeof internals.destroy !== 'function'
  )
    throw new Error('ws receiver is not as this module knows it');
  return internals as ReceiverInternals;
}

/** The same on a ws Receiver itself (the tests drive one directly). */
export function assembleAsTheyArrive(
  receiver: unknown,
  fromBytes: number,
  events: AssemblyEvents = keepEvery,
): void {
  const internals = knownReceiver(receiver);
  const { getData, consume } = internals;
  let assembly: Assembly | null = null;

  // Once the answer has come, the frame is read on from where it waited. Errors go where ws sends those of its
  // own loop (the stream's write callback destroys the receiver with them).
  const readOn = (target: ReceiverInternals, waiting: Assembly, state: number) => {
    if (assembly !== waiting || target._state !== state || target.destroyed || target._errored) return;
    target.startLoop((error) => {
      if (error) target.destroy(error);
    });
  };

  const begin = (target: ReceiverInternals, length: number): Assembly => {
    const frameMask = target._masked ? target._mask : undefined;
    const masks = frameMask
      ? [0, 1, 2, 3].map((start) => Buffer.from([0, 1, 2, 3].map((i) => frameMask[(start + i) & 3]!)))
      : null;
    const begun: Assembly = { length, masks, kept: null, bytes: null, filled: 0, dropped: 0 };
    const canLetGo = target._fin && target._fragmented === 0;
    const decide = (answer: boolean) => {
      begun.kept = answer || !canLetGo;
      if (begun.kept) begun.bytes = Buffer.allocUnsafe(length);
    };
    const answer = events.started(length, canLetGo);
    if (typeof answer === 'boolean') decide(answer);
    else {
      const state = target._state;
      void answer
        .catch(() => true)
        .then((kept) => {
          decide(kept);
          readOn(target, begun, state);
        });
    }
    return begun;
  };

  // ws calls getData each time bytes arrive while a payload is incomplete, and once more when it is whole.
  internals.getData = function (this: ReceiverInternals, cb: unknown) {
    const length = this._payloadLength;
    if (length >= fromBytes) {
      assembly ??= begin(this, length);
      // Waiting for the answer, as for bytes: ws's loop stops here and goes on from here (readOn).
      if (assembly.kept === null) {
        this._loop = false;
        return;
      }
      takeArrived(this._buffers, assembly);
    }
    getData.call(this, cb);
  };

  // Called for the whole payload once it has arrived: by then it is all taken (getData takes first).
  internals.consume = function (this: ReceiverInternals, n: number) {
    const whole = assembly;
    if (!whole || whole.length !== n) return consume.call(this, n);
    assembly = null;
    this._bufferedBytes -= n;
    dropFront(this._buffers, n - whole.dropped);
    events.whole(whole.kept === true);
    if (whole.masks) this._mask = NO_MASK;
    return whole.bytes ?? NOTHING;
  };
}

/**
 * Takes what has arrived of the payload since the last call (it follows what was taken: the chunks left are
 * the payload's, in order, then perhaps the next frame's), copying it when the frame is kept, and lets go of
 * every chunk taken whole.
 */
function takeArrived(chunks: Buffer[], assembly: Assembly): void {
  const { bytes, length } = assembly;
  // The bytes of the first chunk taken before, when it was taken only in part.
  let offset = assembly.filled - assembly.dropped;
  while (assembly.filled < length && chunks.length > 0) {
    const chunk = chunks[0]!;
    const take = Math.min(chunk.length - offset, length - assembly.filled);
    if (bytes && assembly.masks)
      mask(chunk.subarray(offset), assembly.masks[assembly.filled & 3]!, bytes, assembly.filled, take);
    else bytes?.set(chunk.subarray(offset, offset + take), assembly.filled);
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
