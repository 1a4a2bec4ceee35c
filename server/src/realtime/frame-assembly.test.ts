import { randomBytes } from 'node:crypto';
import type { Writable } from 'node:stream';
import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';
import * as wsModule from 'ws';
import { assembleAsTheyArrive } from './frame-assembly.js';

// ws exports its Receiver (the typings do not declare it): the part of a server socket that reads frames.
const { Receiver } = wsModule as unknown as {
  Receiver: new (options: { isServer: boolean; maxPayload: number }) => Writable;
};

/** One frame as a client sends it: masked, with the 7, 16 or 64 bit length. */
function frame(opcode: number, fin: boolean, payload: Buffer, mask: Buffer): Buffer {
  const length = payload.length;
  const head = length < 126 ? Buffer.alloc(2) : length < 65536 ? Buffer.alloc(4) : Buffer.alloc(10);
  head[0] = (fin ? 0x80 : 0) | opcode;
  if (length < 126) head[1] = 0x80 | length;
  else if (length < 65536) {
    head[1] = 0x80 | 126;
    head.writeUInt16BE(length, 2);
  } else {
    head[1] = 0x80 | 127;
    head.writeBigUInt64BE(BigInt(length), 2);
  }
  const masked = Buffer.from(payload);
  for (let i = 0; i < masked.length; i += 1) masked[i]! ^= mask[i & 3]!;
  return Buffer.concat([head, mask, masked]);
}

interface Message {
  /** In base64: comparing long Buffers element by element is slow. */
  data: string;
  isBinary: boolean;
}

/** Feeds `chunks` to a receiver, as a socket's data events do, and returns the messages it gave. */
function receive(chunks: Buffer[], assembleFrom: number | null): Message[] {
  const receiver = new Receiver({ isServer: true, maxPayload: 0 });
  if (assembleFrom !== null) assembleAsTheyArrive(receiver, assembleFrom);
  const messages: Message[] = [];
  receiver.on('message', (data: Buffer, isBinary: boolean) =>
    messages.push({ data: data.toString('base64'), isBinary }),
  );
  receiver.on('error', (error) => messages.push({ data: String(error), isBinary: false }));
  // A copy of each: ws unmasks a payload in place, in the chunk it arrived in.
  for (const chunk of chunks) receiver.write(Buffer.from(chunk));
  return messages;
}

function split(bytes: Buffer, cuts: number[]): Buffer[] {
  const points = [...new Set(cuts.map((cut) => cut % (bytes.length + 1)))].sort((a, b) => a - b);
  const chunks: Buffer[] = [];
  let start = 0;
  for (const point of [...points, bytes.length]) {
    if (point > start) chunks.push(bytes.subarray(start, point));
    start = point;
  }
  return chunks;
}

afterEach(() => {
  vi.restoreAllMocks();
});

const FROM = 1000;

describe('assembling large frames as they arrive', () => {
  it('gives the same messages as ws alone, however the bytes are cut and whatever the frames', () => {
    const message = fc.record({
      isBinary: fc.boolean(),
      // Around the size from which frames are assembled, and well past it.
      length: fc.oneof(fc.integer({ min: 0, max: 200 }), fc.integer({ min: FROM - 2, max: 70_000 })),
      fragments: fc.integer({ min: 1, max: 3 }),
      pingBetween: fc.boolean(),
    });
    fc.assert(
      fc.property(
        fc.array(message, { minLength: 1, maxLength: 4 }),
        fc.array(fc.nat(), { maxLength: 40 }),
        (messages, cuts) => {
          const sent: Message[] = [];
          const frames: Buffer[] = [];
          for (const each of messages) {
            const data = each.isBinary
              ? randomBytes(each.length)
              : Buffer.from('縁'.repeat(Math.ceil(each.length / 3)).slice(0, Math.ceil(each.length / 3)));
            sent.push({ data: data.toString('base64'), isBinary: each.isBinary });
            const size = Math.ceil(data.length / each.fragments);
            for (let part = 0; part < each.fragments; part += 1) {
              const piece = data.subarray(part * size, (part + 1) * size);
              const last = part === each.fragments - 1;
              if (piece.length === 0 && !last && data.length > 0) continue;
              frames.push(frame(part === 0 ? (each.isBinary ? 2 : 1) : 0, last, piece, randomBytes(4)));
              if (each.pingBetween && !last) frames.push(frame(9, true, Buffer.from('ping'), randomBytes(4)));
            }
          }
          const chunks = split(Buffer.concat(frames), cuts);
          const plain = receive(chunks, null);
          expect(receive(chunks, FROM)).toEqual(plain);
          expect(plain).toEqual(sent);
        },
      ),
      { numRuns: 200 },
    );
  });

  it('copies a large frame into its own buffer from its first chunk on, not all at once after its last', () => {
    const payload = randomBytes(300_000);
    const bytes = frame(2, true, payload, randomBytes(4));
    const chunks = split(
      bytes,
      Array.from({ length: 5 }, (_, i) => (i + 1) * 64 * 1024),
    );
    const allocations = vi.spyOn(Buffer, 'allocUnsafe');
    const receiver = new Receiver({ isServer: true, maxPayload: 0 });
    assembleAsTheyArrive(receiver, FROM);
    const messages: Buffer[] = [];
    receiver.on('message', (data: Buffer) => messages.push(data));

    const held = () => (receiver as unknown as { _buffers: Buffer[] })._buffers.length;
    receiver.write(chunks[0]!);
    expect(allocations.mock.calls.filter(([size]) => size === payload.length)).toHaveLength(1);
    for (const chunk of chunks.slice(1, -1)) {
      receiver.write(chunk);
      // The chunks copied are let go at once, not held until the frame is whole.
      expect(held()).toBe(0);
    }
    receiver.write(chunks.at(-1)!);
    // The payload was not copied again when it was whole.
    expect(allocations.mock.calls.filter(([size]) => size === payload.length)).toHaveLength(1);
    expect(messages).toEqual([payload]);
  });

  it('refuses a receiver it does not know, rather than leaving frames unread', () => {
    expect(() => assembleAsTheyArrive({}, FROM)).toThrow('ws receiver');
    expect(() => assembleAsTheyArrive(null, FROM)).toThrow('ws receiver');
  });
});
