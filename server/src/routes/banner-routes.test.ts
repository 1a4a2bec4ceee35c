import { BannerGetReply, ja, type BannerRow, jaMember } from '@enishi/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, callRaw, createTestContext, type TestContext } from '../test/app.js';
import {
  createRoleUsers,
  fetchImage,
  imageDataUrl,
  MEMBER_ROLES,
  oversizedPng,
  STAFF_ROLES,
  textAsPng,
  type RoleName,
} from '../test/content.js';

describe('ad banners', () => {
  let ctx: TestContext;
  let ssid: Record<RoleName, string>;
  let png: string;

  const add = (who: RoleName, body: Record<string, unknown> = {}) =>
    call(ctx.app, 'banner/add', {
      ssid: ssid[who],
      url: 'https://example.com/campaign',
      type: 1,
      image: png,
      ...body,
    });
  const get = async (who: RoleName, body: Record<string, unknown> = {}): Promise<BannerRow[]> => {
    const reply = await call(ctx.app, 'banner/get', { ssid: ssid[who], ...body });
    expect(reply.status).toBe(200);
    return BannerGetReply.parse(reply.body).rows;
  };
  const idOf = (reply: { body: unknown }) => (reply.body as { id: number }).id;

  beforeAll(async () => {
    ctx = await createTestContext();
    ({ ssid } = await createRoleUsers(ctx.app));
    png = await imageDataUrl('png', { width: 120, height: 34 });
  });
  afterAll(() => ctx.close());

  it.each(['banner/add', 'banner/delete', 'banner/get'])(
    '%s answers 401 without a valid session',
    async (name) => {
      for (const body of [{}, { ssid: 'expired-or-made-up' }]) {
        expect(await call(ctx.app, name, { ...body, type: 1, id: 1 })).toMatchObject({
          status: 401,
          body: { error: ja.errors.unauthorized },
        });
      }
    },
  );

  it.each(STAFF_ROLES)('staff role %s adds and deletes banners', async (who) => {
    const added = await add(who, { type: 2 });
    expect(added).toMatchObject({ status: 200, body: { status: 'OK', id: expect.any(Number) } });
    const id = idOf(added);
    expect(await get(who, { id })).toEqual([
      {
        id,
        url: 'https://example.com/campaign',
        image: expect.stringMatching(/^\/media\/content\//),
        type: 2,
      },
    ]);
    expect(await call(ctx.app, 'banner/delete', { ssid: ssid[who], id })).toMatchObject({
      status: 200,
      body: { status: 'OK' },
    });
    expect((await call(ctx.app, 'banner/get', { ssid: ssid[who], id })).status).toBe(404);
    expect((await call(ctx.app, 'banner/delete', { ssid: ssid[who], id })).status).toBe(404);
  });

  it.each(MEMBER_ROLES)('member %s may not add or delete banners (403)', async (who) => {
    const id = idOf(await add('staff'));
    expect(await add(who)).toMatchObject({ status: 403, body: { error: ja.errors.forbidden } });
    expect(await call(ctx.app, 'banner/delete', { ssid: ssid[who], id })).toMatchObject({ status: 403 });
    expect(await get('staff', { id })).toHaveLength(1);
    await call(ctx.app, 'banner/delete', { ssid: ssid.staff, id });
  });

  describe('validation', () => {
    it.each([
      [{ url: 'javascript:alert(1)' }, jaMember.banners.badUrl],
      [{ url: 'JavaScript:alert(document.cookie)//https://x' }, jaMember.banners.badUrl],
      [{ url: 'data:text/html,<script>alert(1)</script>' }, jaMember.banners.badUrl],
      [{ url: 'ftp://example.com/' }, jaMember.banners.badUrl],
      [{ url: 'example.com' }, jaMember.banners.badUrl],
      [{ url: 'https://user:pass@example.com/' }, jaMember.banners.urlWithCredentials],
      [{ url: '' }, jaMember.banners.urlRequired],
      [{ url: undefined }, jaMember.banners.urlRequired],
      [{ url: `https://example.com/${'a'.repeat(2000)}` }, ja.errors.tooLong],
      [{ image: undefined }, jaMember.banners.imageRequired],
      [{ image: '' }, jaMember.banners.imageRequired],
      [{ image: 'https://example.com/banner.png' }, jaMember.banners.badImage],
      [{ type: 0 }, ja.errors.badRequest],
      [{ type: 3 }, ja.errors.badRequest],
      [{ type: undefined }, ja.errors.badRequest],
    ])('refuses %j with 400', async (change, message) => {
      expect(await add('staff', change)).toMatchObject({ status: 400, body: { error: message } });
    });

    it('checks the bytes: a GIF or text labelled PNG is refused, WebP and JPEG are taken', async () => {
      const gifAsPng = await imageDataUrl('gif', { label: 'image/png' });
      expect(await add('staff', { image: gifAsPng })).toMatchObject({
        status: 400,
        body: { error: ja.errors.badImage },
      });
      expect(await add('staff', { image: textAsPng })).toMatchObject({
        status: 400,
        body: { error: ja.errors.badImage },
      });
      expect(await add('staff', { image: oversizedPng() })).toMatchObject({
        status: 400,
        body: { error: ja.errors.imageTooLarge },
      });
      for (const format of ['webp', 'jpeg'] as const) {
        const reply = await add('staff', { image: await imageDataUrl(format) });
        expect(reply.status).toBe(200);
        const [row] = await get('staff', { id: idOf(reply) });
        expect((await fetchImage(ctx.app, row!.image)).type).toBe(`image/${format}`);
        await call(ctx.app, 'banner/delete', { ssid: ssid.staff, id: idOf(reply) });
      }
    });

    it('answers 413 with Japanese text for a body over the route limit', async () => {
      const body = JSON.stringify({
        ssid: ssid.staff,
        url: 'https://x.jp',
        type: 1,
        image: 'x'.repeat(9_000_000),
      });
      expect(await callRaw(ctx.app, 'banner/add', body, 'application/json')).toMatchObject({
        status: 413,
        body: { error: ja.errors.tooLarge },
      });
    });
  });

  describe('reading', () => {
    let menBanner: number;
    let womenBanner: number;

    beforeAll(async () => {
      menBanner = idOf(await add('staff', { url: 'https://example.com/men' }));
      womenBanner = idOf(await add('staff', { url: 'http://example.com/women?a=1&b=2', type: 2 }));
    });

    it('gives each member only their group banners, whatever type they ask for', async () => {
      for (const type of [undefined, 1, 2]) {
        const body = type === undefined ? {} : { type };
        expect((await get('man', body)).map((row) => row.id)).toEqual([menBanner]);
        expect((await get('woman', body)).map((row) => row.id)).toEqual([womenBanner]);
      }
    });

    it('answers 404 to a member asking for the other group banner by id', async () => {
      expect(await call(ctx.app, 'banner/get', { ssid: ssid.man, id: womenBanner })).toMatchObject({
        status: 404,
        body: { error: ja.errors.notFound },
      });
      expect((await get('woman', { id: womenBanner }))[0]!.url).toBe('http://example.com/women?a=1&b=2');
    });

    it('gives staff all banners, or one type, in the order they were added', async () => {
      expect((await get('admin')).map((row) => row.id)).toEqual([menBanner, womenBanner]);
      expect((await get('staff6', { type: 2 })).map((row) => row.id)).toEqual([womenBanner]);
    });

    it('serves a banner image to its URL holder until the banner is deleted', async () => {
      const id = idOf(await add('staff', { type: 2 }));
      const [row] = await get('woman', { id });
      expect(await fetchImage(ctx.app, row!.image)).toMatchObject({ status: 200, type: 'image/png' });
      await call(ctx.app, 'banner/delete', { ssid: ssid.staff, id });
      expect((await fetchImage(ctx.app, row!.image)).status).toBe(404);
    });
  });
});
