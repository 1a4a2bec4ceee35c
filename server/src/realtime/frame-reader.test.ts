import { setImmediate as nextTurn } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { FrameReader } from './frame-reader.js';

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

  it('starts a new worker after being stopped', async () => {
    reader = new FrameReader();
    await reader.read(bytes('{"type":"open"}'), false);
    await reader.close();
    expect((await reader.read(bytes('{"type":"ping"}'), false)).frame).toEqual({ type: 'ping' });
  });
});
