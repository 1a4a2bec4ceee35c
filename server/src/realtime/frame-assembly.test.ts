import { createHash, randomBytes } from 'node:crypto';
import type { Writable } from 'node:stream';
import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';
import * as wsModule from 'ws';
import { assembleAsTheyArrive, type AssemblyEvents } from './frame-assembly.js';

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

const summary = (data: Buffer) =>
  `${data.length} bytes, ${createHash('sha256').update(data).digest('base64').slice(0, 12)}`;

interface Message {
  /** Its length and digest: a diff of long Buffers (or strings) takes minutes when a comparison fails. */
  data: string;
  isBinary: boolean;
}

/** Feeds `chunks` to a receiver, as a socket's data events do, and returns the messages it gave. */
function receive(chunks: Buffer[], assembleFrom: number | null, events?: AssemblyEvents): Message[] {
  const receiver = new Receiver({ isServer: true, maxPayload: 0 });
  if (assembleFrom !== null) assembleAsTheyArrive(receiver, assembleFrom, events);
  const messages: Message[] = [];
  receiver.on('message', (data: Buffer, isBinary: boolean) =>
    messages.push({ data: summary(data), isBinary }),
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
            sent.push({ data: summary(data), isBinary: each.isBinary });
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

  it('lets a frame go unread when told to, at once or later, and reads on from there', async () => {
    const message = fc.record({
      length: fc.oneof(fc.integer({ min: 0, max: 200 }), fc.integer({ min: FROM, max: 70_000 })),
      fragmented: fc.boolean(),
      keep: fc.boolean(),
      // The answer comes with the header, or later: after the chunks written before it was asked for.
      later: fc.boolean(),
    });
    await fc.assert(
      fc.asyncProperty(
        fc.array(message, { minLength: 1, maxLength: 4 }),
        fc.array(fc.nat(), { maxLength: 40 }),
        async (messages, cuts) => {
          const frames: Buffer[] = [];
          const expected: Message[] = [];
          // What each large frame is answered, in the order they come.
          const plan: { keep: boolean; later: boolean }[] = [];
          const send = (
            opcode: number,
            fin: boolean,
            payload: Buffer,
            each: { keep: boolean; later: boolean },
          ) => {
            frames.push(frame(opcode, fin, payload, randomBytes(4)));
            if (payload.length >= FROM) plan.push(each);
          };
          for (const each of messages) {
            const data = randomBytes(each.length);
            const half = Math.ceil(data.length / 2);
            if (each.fragmented && data.length > 1) {
              send(2, false, data.subarray(0, half), each);
              send(0, true, data.subarray(half), each);
            } else send(2, true, data, each);
            // Only a whole message is let go; its fragments are kept whatever the answer.
            const letGo = !each.keep && data.length >= FROM && !(each.fragmented && data.length > 1);
            expected.push({ data: summary(letGo ? Buffer.alloc(0) : data), isBinary: true });
          }
          const asked: { length: number; canLetGo: boolean }[] = [];
          const answers: (() => void)[] = [];
          const told: boolean[] = [];
          const events: AssemblyEvents = {
            started(length, canLetGo) {
              asked.push({ length, canLetGo });
              const each = plan.shift()!;
              if (!each.later) return each.keep;
              return new Promise<boolean>((resolve) => answers.push(() => resolve(each.keep)));
            },
            whole: (kept) => told.push(kept),
          };
          const chunks = split(Buffer.concat(frames), cuts);
          const receiver = new Receiver({ isServer: true, maxPayload: 0 });
          assembleAsTheyArrive(receiver, FROM, events);
          const got: Message[] = [];
          receiver.on('message', (data: Buffer, isBinary: boolean) =>
            got.push({ data: summary(data), isBinary }),
          );
          receiver.on('error', (error) => got.push({ data: String(error), isBinary: false }));
          // Each answer due comes after the next chunk has been written, or once there are none left.
          const answerDue = async () => {
            answers.splice(0).forEach((answer) => answer());
            await new Promise((resolve) => setImmediate(resolve));
          };
          for (const chunk of chunks) {
            receiver.write(Buffer.from(chunk));
            await answerDue();
          }
          while (answers.length > 0) await answerDue();
          expect(got).toEqual(expected);
          expect(plan).toEqual([]);
          expect(told).toHaveLength(asked.length);
        },
      ),
      { numRuns: 150 },
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
    expect(messages.map(summary)).toEqual([summary(payload)]);
  });

  it('never copies a frame let go, and lets go of its chunks as they arrive', () => {
    const payload = randomBytes(300_000);
    const after = Buffer.from('次のフレーム');
    const bytes = Buffer.concat([
      frame(2, true, payload, randomBytes(4)),
      frame(1, true, after, randomBytes(4)),
    ]);
    const chunks = split(
      bytes,
      Array.from({ length: 5 }, (_, i) => (i + 1) * 64 * 1024),
    );
    const allocations = vi.spyOn(Buffer, 'allocUnsafe');
    const receiver = new Receiver({ isServer: true, maxPayload: 0 });
    const told: boolean[] = [];
    assembleAsTheyArrive(receiver, FROM, { started: () => false, whole: (kept) => told.push(kept) });
    const messages: string[] = [];
    receiver.on('message', (data: Buffer) => messages.push(data.toString()));

    const held = () => (receiver as unknown as { _buffers: Buffer[] })._buffers.length;
    for (const chunk of chunks.slice(0, -1)) {
      receiver.write(chunk);
      expect(held()).toBe(0);
    }
    receiver.write(chunks.at(-1)!);
    expect(allocations.mock.calls.filter(([size]) => size === payload.length)).toHaveLength(0);
    expect(told).toEqual([false]);
    expect(messages).toEqual(['', '次のフレーム']);
  });

  it('refuses a receiver it does not know, rather than leaving frames unread', () => {
    expect(() => assembleAsTheyArrive({}, FROM)).toThrow('ws receiver');
    expect(() => assembleAsTheyArrive(null, FROM)).toThrow('ws receiver');
  });
});
