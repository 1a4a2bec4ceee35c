import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { IMAGE_DATA_URL_MAX, ImageDataUrl, ja } from '@enishi/contract';
import { FrameReader } from './frame-reader.js';
import { BACKGROUND_NICE } from '../lib/background-priority.js';
import { PICTURE_READ } from './frame-reader-protocol.js';

let reader: FrameReader;
afterEach(async () => {
  await reader.close();
});

const bytes = (text: string) => Buffer.from(text, 'utf8');

describe('the frame reader', () => {
  it('reads a frame in its worker as the event loop would, flagging text the database cannot store', async () => {
    reader = new FrameReader();
    expect(await reader.read(bytes('{"type":"text","message":"こんにちは"}'), false)).toMatchObject({
      frame: { type: 'text', message: 'こんにちは' },
      unstorable: false,
    });
    expect((await reader.read(bytes('{"type":"text","message":"a\\u0000b"}'), false)).unstorable).toBe(true);
    expect((await reader.read(bytes('[1,2]'), false)).frame).toBeNull();
    expect((await reader.read(bytes('{"type":'), false)).frame).toBeNull();
    expect(
      (await reader.read(bytes('{"a":' + '['.repeat(20) + ']'.repeat(20) + '}'), false)).frame,
    ).toBeNull();
    expect((await reader.read(bytes('{"type":"text"}'), true)).frame).toBeNull();
  });

  it('keeps the event loop turning while a frame of pictures is read, and answers in order', async () => {
    reader = new FrameReader();
    const picture = `data:image/png;base64,${'A'.repeat(5_000_000)}`;
    const big = bytes(
      JSON.stringify({ type: 'text', message: '大きな画像', image: [picture, picture, picture] }),
    );
    let turns = 0;
    let done = false;
    const reads = [reader.read(big, false), reader.read(bytes('{"type":"open"}'), false)];
    const all = Promise.all(reads).finally(() => (done = true));
    while (!done) {
      turns += 1;
      await nextTurn();
    }
    const [first, second] = await all;
    expect((first!.frame?.image as string[]).length).toBe(3);
    expect(second!.frame).toEqual({ type: 'open' });
    // Parsed here, the 15 MB frame would have run in one turn; in the worker, the loop went on meanwhile.
    expect(turns).toBeGreaterThan(10);
  });

  it('hands back the pictures of a text frame decoded, and leaves a bad one for the contract to refuse', async () => {
    reader = new FrameReader();
    const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3]);
    const good = `data:image/png;base64,${png.toString('base64')}`;
    const frame = { type: 'text', message: '', image: [good, 'data:image/gif;base64,R0lG', good] };
    const read = await reader.read(bytes(JSON.stringify(frame)), false);
    expect(read.frame?.image).toEqual([PICTURE_READ, '', PICTURE_READ]);
    expect(read.pictures?.map((picture) => picture && Buffer.from(picture))).toEqual([png, null, png]);
    // The stand-in and the refusal are what the contract itself says of them.
    expect(ImageDataUrl.safeParse(PICTURE_READ).success).toBe(true);
    expect(ImageDataUrl.safeParse('').error?.issues[0]?.message).toBe(ja.errors.badImage);

    const tooLong = `data:image/png;base64,${'A'.repeat(IMAGE_DATA_URL_MAX)}`;
    const long = await reader.read(bytes(JSON.stringify({ ...frame, image: [tooLong] })), false);
    expect(long.frame?.image).toEqual([tooLong]);
    expect(long.pictures).toEqual([null]);
    // Not a text frame, or not a list of strings: nothing is decoded.
    const open = await reader.read(bytes(JSON.stringify({ type: 'open', image: [good] })), false);
    expect([open.frame?.image, open.pictures]).toEqual([[good], null]);
    const mixed = await reader.read(bytes(JSON.stringify({ ...frame, image: [good, 1] })), false);
    expect([mixed.frame?.image, mixed.pictures]).toEqual([[good, 1], null]);
  });

  it('starts a new worker after being stopped', async () => {
    reader = new FrameReader();
    await reader.read(bytes('{"type":"open"}'), false);
    await reader.close();
    expect((await reader.read(bytes('{"type":"ping"}'), false)).frame).toEqual({ type: 'ping' });
  });

  it.runIf(existsSync('/proc/thread-self'))(
    'reads at background priority, in a thread of its own (nothing else of the process is lowered)',
    async () => {
      // A thread's niceness is the 19th field of its stat (the 17th after the command name).
      const lowered = () =>
        readdirSync('/proc/self/task').filter((tid) => {
          try {
            const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
            return Number(stat.split(') ')[1]?.split(' ')[16]) === BACKGROUND_NICE;
          } catch {
            return false; // a thread that ended meanwhile
          }
        }).length;
      expect(lowered()).toBe(0);
      reader = new FrameReader();
      await reader.read(bytes('{"type":"open"}'), false);
      expect(lowered()).toBe(1);
      await reader.close();
      expect(lowered()).toBe(0);
    },
  );
});
