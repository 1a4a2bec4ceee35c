import { BannerGetReply } from '@enishi/contract';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { call, createTestContext, type TestContext } from '../test/app.js';
import { createRoleUsers, fetchImage, imageDataUrl, type RoleName } from '../test/content.js';

/** product.md §4: a banner is served as WebP at 480, 800 and 1200 px through its signed URL (`&w=`). */
describe('banner image variants', () => {
  let ctx: TestContext;
  let ssid: Record<RoleName, string>;
  let image: string;
  let id: number;
  /** What the media folder holds before any banner: the club's own stamps, seeded at start (product.md §12.8). */
  let before: string[];

  /** Every file under the data directory's media folder, relative to it. */
  const mediaFiles = (): string[] =>
    readdirSync(path.join(ctx.dataDir, 'media'), { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile())
      .map((entry) =>
        path.relative(path.join(ctx.dataDir, 'media'), path.join(entry.parentPath, entry.name)),
      );

  beforeAll(async () => {
    ctx = await createTestContext();
    ({ ssid } = await createRoleUsers(ctx.app));
    before = mediaFiles();
  });
  // Each test has its own banner, gone after it, so the media folder holds that banner's files besides `before`.
  beforeEach(async () => {
    const png = await imageDataUrl('png', { width: 1200, height: 340 });
    const added = await call(ctx.app, 'banner/add', {
      ssid: ssid.staff,
      url: 'https://example.com/campaign',
      type: 1,
      image: png,
    });
    id = (added.body as { id: number }).id;
    const reply = await call(ctx.app, 'banner/get', { ssid: ssid.man, type: 1 });
    image = BannerGetReply.parse(reply.body).rows.find((row) => row.id === id)!.image;
  });
  afterEach(async () => {
    await call(ctx.app, 'banner/delete', { ssid: ssid.staff, id });
  });
  afterAll(() => ctx.close());

  it.each([480, 800, 1200])('w=%i is a WebP of that width, made once and then kept', async (width) => {
    const first = await fetchImage(ctx.app, `${image}&w=${width}`);
    expect(first.status).toBe(200);
    expect(first.type).toBe('image/webp');
    const meta = await sharp(first.bytes).metadata();
    expect(meta).toMatchObject({ format: 'webp', width, height: Math.round((340 * width) / 1200) });
    expect(mediaFiles().filter((file) => file.endsWith(`-${width}.webp`))).toHaveLength(1);
    const again = await fetchImage(ctx.app, `${image}&w=${width}`);
    expect(again.bytes.equals(first.bytes)).toBe(true);
  });

  it('the original stays as uploaded; another width, or a changed signature, is refused', async () => {
    expect((await fetchImage(ctx.app, image)).type).toBe('image/png');
    expect((await fetchImage(ctx.app, `${image}&w=640`)).status).toBe(404);
    expect((await fetchImage(ctx.app, `${image}&w=big`)).status).toBe(404);
    const forged = image.replace(/s=([A-Za-z0-9_-])/, (_, c: string) => `s=${c === 'A' ? 'B' : 'A'}`);
    expect((await fetchImage(ctx.app, `${forged}&w=480`)).status).toBe(403);
  });

  it('deleting the banner removes its variants with it', async () => {
    await fetchImage(ctx.app, `${image}&w=480`);
    expect(mediaFiles().some((file) => file.includes('variants'))).toBe(true);
    await call(ctx.app, 'banner/delete', { ssid: ssid.staff, id });
    expect(mediaFiles().sort()).toEqual([...before].sort());
    expect((await fetchImage(ctx.app, `${image}&w=480`)).status).toBe(404);
  });
});
