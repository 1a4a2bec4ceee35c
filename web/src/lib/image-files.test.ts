import { describe, expect, it } from 'vitest';
import { encodeWithinBudget, pickImageFiles, talkImageSize } from './image-files';

describe('talkImageSize', () => {
  it('makes a landscape or square picture 400 wide', () => {
    expect(talkImageSize(4032, 3024)).toEqual({ width: 400, height: 300 });
    expect(talkImageSize(1000, 1000)).toEqual({ width: 400, height: 400 });
    expect(talkImageSize(200, 100)).toEqual({ width: 400, height: 200 });
  });

  it('makes a portrait picture 800 tall', () => {
    expect(talkImageSize(3024, 4032)).toEqual({ width: 600, height: 800 });
    expect(talkImageSize(1170, 2532)).toEqual({ width: 370, height: 800 });
  });

  it('never gives a side of zero pixels', () => {
    expect(talkImageSize(10000, 1)).toEqual({ width: 400, height: 1 });
    expect(talkImageSize(1, 10000)).toEqual({ width: 1, height: 800 });
    expect(talkImageSize(0, 10)).toEqual({ width: 0, height: 0 });
  });
});

describe('pickImageFiles', () => {
  const jpeg = { type: 'image/jpeg', size: 1000 };
  const png = { type: 'image/png', size: 5_000_000 };
  const talkTypes = ['image/jpeg', 'image/png'] as const;

  it('leaves out other types and files over 5,000,000 bytes', () => {
    const files = [jpeg, { type: 'image/gif', size: 10 }, { type: 'image/png', size: 5_000_001 }, png];
    expect(pickImageFiles(files, talkTypes, 5)).toEqual({ accepted: [jpeg, png], skipped: true });
    expect(pickImageFiles([jpeg, png], talkTypes, 5)).toEqual({ accepted: [jpeg, png], skipped: false });
  });

  it('keeps no more than there is room for', () => {
    const many = Array.from({ length: 4 }, () => jpeg);
    expect(pickImageFiles(many, talkTypes, 2)).toEqual({ accepted: [jpeg, jpeg], skipped: true });
    expect(pickImageFiles([jpeg], talkTypes, 0)).toEqual({ accepted: [], skipped: true });
  });
});

describe('encodeWithinBudget', () => {
  const blobOf = (bytes: number) => new Blob([new Uint8Array(bytes)], { type: 'image/jpeg' });

  it('keeps the first quality whose photo fits, trying no lower one', async () => {
    const tried: number[] = [];
    const blob = await encodeWithinBudget(async (quality) => {
      tried.push(quality);
      return blobOf(quality > 0.75 ? 250_000 : 150_000);
    });
    expect(tried).toEqual([0.82, 0.7]);
    expect(blob?.size).toBe(150_000);
  });

  it('sends the smallest try when none fits, and nothing when the browser cannot encode', async () => {
    expect((await encodeWithinBudget(async () => blobOf(300_000)))?.size).toBe(300_000);
    expect(await encodeWithinBudget(async () => null)).toBeNull();
  });
});
