import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { ja, jaMember } from '@enishi/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, callRaw, createTestContext, type TestContext } from '../test/app.js';
import {
  createRoleUsers,
  fetchImage,
  imageDataUrl,
  MEMBER_ROLES,
  newsCalls,
  oversizedPng,
  STAFF_ROLES,
  textAsPng,
  type RoleName,
} from '../test/content.js';

async function mediaFiles(dataDir: string): Promise<string[]> {
  const entries = await readdir(path.join(dataDir, 'media'), { recursive: true, withFileTypes: true }).catch(
    () => [],
  );
  return entries.filter((entry) => entry.isFile()).map((entry) => entry.name);
}

describe('news', () => {
  let ctx: TestContext;
  let ssid: Record<RoleName, string>;
  let png: string;
  let jpeg: string;

  const { add, get } = newsCalls(
    () => ctx.app,
    () => ssid,
  );
  const idOf = (reply: { body: unknown }) => (reply.body as { id: number }).id;

  beforeAll(async () => {
    ctx = await createTestContext();
    ({ ssid } = await createRoleUsers(ctx.app));
    png = await imageDataUrl('png');
    jpeg = await imageDataUrl('jpeg', { color: '#35a' });
  });
  afterAll(() => ctx.close());

  describe('who may call what', () => {
    it.each(['news/add', 'news/update', 'news/delete', 'news/get'])(
      '%s answers 401 without a valid session, before looking at the body',
      async (name) => {
        for (const body of [{}, { ssid: 'not-a-session' }, { ssid: 'A'.repeat(43), type: 9 }]) {
          const reply = await call(ctx.app, name, body);
          expect(reply.status).toBe(401);
          expect(reply.body).toEqual({ error: ja.errors.unauthorized });
        }
      },
    );

    it.each(STAFF_ROLES)('staff role %s adds, edits and deletes news', async (who) => {
      const added = await add(who, { title: `${who}のお知らせ`, type: 2 });
      expect(added).toMatchObject({ status: 200, body: { status: 'OK', id: expect.any(Number) } });
      const id = idOf(added);
      const updated = await call(ctx.app, 'news/update', {
        ssid: ssid[who],
        id,
        title: '修正',
        body: '修正後',
        type: 2,
        images: [],
      });
      expect(updated).toMatchObject({ status: 200, body: { status: 'OK', id } });
      expect((await get(who, { id }))[0]).toMatchObject({ title: '修正', body: '修正後', type: 2 });
      expect(await call(ctx.app, 'news/delete', { ssid: ssid[who], id })).toMatchObject({
        status: 200,
        body: { status: 'OK' },
      });
      expect((await call(ctx.app, 'news/get', { ssid: ssid[who], id })).status).toBe(404);
    });

    it.each(MEMBER_ROLES)('member %s may not add, edit or delete news (403)', async (who) => {
      const id = idOf(await add('staff', { type: who === 'man' ? 1 : 2 }));
      const refused = [
        await add(who, {}),
        await call(ctx.app, 'news/update', {
          ssid: ssid[who],
          id,
          title: 'x',
          body: 'y',
          type: 1,
          images: [],
        }),
        await call(ctx.app, 'news/delete', { ssid: ssid[who], id }),
      ];
      for (const reply of refused)
        expect(reply).toMatchObject({ status: 403, body: { error: ja.errors.forbidden } });
      expect(await get('staff', { id })).toHaveLength(1);
    });
  });

  describe('validation', () => {
    it.each([
      [{ title: '' }, jaMember.news.titleRequired],
      [{ title: '   ' }, jaMember.news.titleRequired],
      [{ body: '' }, jaMember.news.bodyRequired],
      [{ title: 'x'.repeat(101) }, ja.errors.tooLong],
      [{ type: 3 }, ja.errors.badRequest],
      [{ type: 'men' }, ja.errors.badRequest],
      [{ images: ['https://example.com/a.png'] }, jaMember.news.badImage],
      [{ images: ['data:image/gif;base64,R0lGODlhAQABAAAAACw='] }, jaMember.news.badImage],
      [{ extra: 1 }, ja.errors.unknownField],
    ])('refuses %j with 400', async (change, message) => {
      const reply = await add('staff', change);
      expect(reply).toEqual(expect.objectContaining({ status: 400, body: { error: message } }));
    });

    it('checks the bytes: WebP or text labelled PNG, and over 5,000,000 bytes, are refused and leave no file', async () => {
      const before = await mediaFiles(ctx.dataDir);
      const webpAsPng = await imageDataUrl('webp', { label: 'image/png' });
      expect((await add('staff', { images: [png, webpAsPng] })).body).toEqual({
        error: jaMember.news.badImage,
      });
      expect((await add('staff', { images: [textAsPng] })).body).toEqual({ error: ja.errors.badImage });
      expect(await add('staff', { images: [oversizedPng()] })).toMatchObject({
        status: 400,
        body: { error: ja.errors.imageTooLarge },
      });
      expect(await mediaFiles(ctx.dataDir)).toEqual(before);
    });

    it('answers 413 with Japanese text for a body over the route limit', async () => {
      const huge = JSON.stringify({
        ssid: ssid.staff,
        title: 't',
        body: 'b',
        type: 1,
        images: ['x'.repeat(43_000_000)],
      });
      const reply = await callRaw(ctx.app, 'news/add', huge, 'application/json');
      expect(reply).toMatchObject({ status: 413, body: { error: ja.errors.tooLarge } });
    });

    it('takes several images of a few MB each (over the default 64 KB limit)', async () => {
      const big = await imageDataUrl('png', { width: 900, height: 700 });
      const reply = await add('staff', { images: [big, big, jpeg] });
      expect(reply.status).toBe(200);
      const [row] = await get('staff', { id: idOf(reply) });
      expect(row!.image).toHaveLength(3);
      await call(ctx.app, 'news/delete', { ssid: ssid.staff, id: idOf(reply) });
    });

    it('answers 404 for news that does not exist', async () => {
      const body = { title: 't', body: 'b', type: 1, images: [] };
      expect((await call(ctx.app, 'news/update', { ssid: ssid.staff, id: 999_999, ...body })).status).toBe(
        404,
      );
      expect((await call(ctx.app, 'news/delete', { ssid: ssid.staff, id: 999_999 })).status).toBe(404);
      expect((await call(ctx.app, 'news/get', { ssid: ssid.staff, id: 999_999 })).status).toBe(404);
    });
  });

  describe('reading', () => {
    let menNews: number;
    let womenNews: number;

    beforeAll(async () => {
      menNews = idOf(
        await add('staff', { title: '男性向け', body: '詳しくは https://example.com/a へ', images: [png] }),
      );
      womenNews = idOf(await add('owner', { title: '女性向け', type: 2, images: [jpeg, png] }));
    });

    it('gives each member only their group news, whatever type they ask for', async () => {
      for (const type of [undefined, 1, 2]) {
        const men = await get('man', type === undefined ? {} : { type });
        expect(men.map((row) => row.type)).not.toContain(2);
        expect(men.map((row) => row.id)).toContain(menNews);
        const women = await get('woman', type === undefined ? {} : { type });
        expect(women.map((row) => row.type)).not.toContain(1);
        expect(women.map((row) => row.id)).toContain(womenNews);
      }
    });

    it('answers 404 to a member asking for the other group news by id, as for news that does not exist', async () => {
      const other = await call(ctx.app, 'news/get', { ssid: ssid.man, id: womenNews });
      const missing = await call(ctx.app, 'news/get', { ssid: ssid.man, id: 999_999 });
      expect(other).toMatchObject({ status: 404, body: { error: ja.errors.notFound } });
      expect(other.body).toEqual(missing.body);
      expect((await get('woman', { id: womenNews }))[0]!.title).toBe('女性向け');
    });

    it('gives staff all news, or one type', async () => {
      for (const who of STAFF_ROLES) {
        const ids = (await get(who)).map((row) => row.id);
        expect(ids).toEqual(expect.arrayContaining([menNews, womenNews]));
        expect((await get(who, { type: 2 })).every((row) => row.type === 2)).toBe(true);
        expect((await get(who, { type: 1, id: womenNews }))[0]!.id).toBe(womenNews);
      }
    });

    it('lists newest first with the fields of product.md §3, images as signed URLs that serve the image', async () => {
      const rows = await get('woman');
      expect(rows[0]).toEqual({
        id: womenNews,
        title: '女性向け',
        body: '本文',
        image: [
          expect.stringMatching(/^\/media\/content\/[\w-]{22}\?e=\d+&s=[\w-]{43}$/),
          expect.stringMatching(/^\/media\/content\//),
        ],
        created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
        type: 2,
      });
      const first = await fetchImage(ctx.app, rows[0]!.image[0]!);
      expect(first).toMatchObject({ status: 200, type: 'image/jpeg' });
      expect((await fetchImage(ctx.app, rows[0]!.image[1]!)).type).toBe('image/png');

      const tampered = rows[0]!.image[0]!.replace(
        /s=([\w-])/,
        (_, c: string) => `s=${c === 'A' ? 'B' : 'A'}`,
      );
      expect((await fetchImage(ctx.app, tampered)).status).toBe(403);
      // A talk image URL path does not serve content images.
      expect(
        (await fetchImage(ctx.app, rows[0]!.image[0]!.replace('/media/content/', '/media/'))).status,
      ).toBe(404);
    });

    it('edits the image list: keeps images by URL or id in the new order, adds new ones, deletes the rest', async () => {
      const id = idOf(await add('staff', { images: [png, jpeg, png] }));
      const [before] = await get('staff', { id });
      const [a, b, c] = before!.image;
      const filesBefore = await mediaFiles(ctx.dataDir);
      const bId = /content\/([\w-]{22})/.exec(b!)![1]!;

      const reply = await call(ctx.app, 'news/update', {
        ssid: ssid.staff,
        id,
        title: '画像を変更',
        body: '本文',
        type: 1,
        images: [c, bId, jpeg],
      });
      expect(reply.status).toBe(200);
      const [after] = await get('staff', { id });
      expect(after!.image).toHaveLength(3);
      expect(after!.image[0]!.split('?')[0]).toBe(c!.split('?')[0]);
      expect(after!.image[1]!.split('?')[0]).toBe(b!.split('?')[0]);
      expect((await fetchImage(ctx.app, a!)).status).toBe(404);
      // One file removed (a), one added (the new JPEG).
      expect((await mediaFiles(ctx.dataDir)).length).toBe(filesBefore.length);

      const otherImage = (await get('staff', { id: menNews }))[0]!.image[0]!;
      const stolen = await call(ctx.app, 'news/update', {
        ssid: ssid.staff,
        id,
        title: 't',
        body: 'b',
        type: 1,
        images: [otherImage],
      });
      expect(stolen.status).toBe(400);
      expect((await fetchImage(ctx.app, otherImage)).status).toBe(200);
    });

    it('deleting news deletes its images', async () => {
      const id = idOf(await add('staff', { images: [png] }));
      const url = (await get('staff', { id }))[0]!.image[0]!;
      expect((await fetchImage(ctx.app, url)).status).toBe(200);
      expect((await call(ctx.app, 'news/delete', { ssid: ssid.staff, id })).status).toBe(200);
      expect((await fetchImage(ctx.app, url)).status).toBe(404);
    });
  });
});
