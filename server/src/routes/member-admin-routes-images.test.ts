import sharp from 'sharp';
import { UserRowsReply, jaMember } from '@enishi/contract';
import { describe, expect, it } from 'vitest';
import { call } from '../test/app.js';
import { dataUrl, form, pngOf, useMemberOffice } from '../test/member-office.js';

const e = jaMember.members.errors;
const JAPANESE = /[\u3040-\u30ff\u4e00-\u9faf]/;

describe('member and staff administration: profile pictures and the audit log', () => {
  const office = useMemberOffice();
  const { people, ssid, freshId, add, addFresh, audit } = office;

  describe('uploadUserImage', () => {
    const upload = (caller: string, uid: number, image: string) =>
      call(office.ctx.app, 'uploadUserImage', { ssid: ssid[caller], uid, image });

    it('stores a picture shrunk to fit 200x200, as JPEG without metadata, behind a signed URL', async () => {
      const target = await addFresh('staff', 'women');
      const reply = await upload('staff', target.uid, dataUrl(await pngOf(800, 400)));
      expect(reply.status).toBe(200);
      const row = UserRowsReply.parse(reply.body).rows[0]!;
      expect(row.image).toMatch(/^\/media\/profile\/[A-Za-z0-9_-]{22}\?e=\d+&s=[A-Za-z0-9_-]{43}$/);
      expect(row.user_image).toBe(row.image);

      const image = await office.ctx.app.inject({ method: 'GET', url: row.image! });
      expect(image.statusCode).toBe(200);
      expect(image.headers['content-type']).toBe('image/jpeg');
      const meta = await sharp(image.rawPayload).metadata();
      expect([meta.format, meta.width, meta.height]).toEqual(['jpeg', 200, 100]);
      expect(meta.exif).toBeUndefined();
      expect(image.rawPayload.includes('secret-exif-marker')).toBe(false);

      // getuser and searchuser show the picture as a URL too.
      const got = await call(office.ctx.app, 'getuser', { ssid: ssid.staff, uid: target.uid });
      expect((got.body as { rows: { image: string }[] }).rows[0]!.image).toMatch(/^\/media\/profile\//);

      const tampered = row.image!.replace(/s=./, (s) => (s === 's=A' ? 's=B' : 's=A'));
      expect((await office.ctx.app.inject({ method: 'GET', url: tampered })).statusCode).toBe(403);

      // A replaced picture is gone.
      await upload('staff', target.uid, dataUrl(await pngOf(50, 50)));
      expect((await office.ctx.app.inject({ method: 'GET', url: row.image! })).statusCode).toBe(404);
    });

    it('judges by the bytes: JPEG and PNG only, at most 5,000,000 bytes', async () => {
      const target = await addFresh('staff', 'women');
      const gif = Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64');
      expect(await upload('staff', target.uid, dataUrl(gif, 'image/png'))).toMatchObject({
        status: 400,
        body: { error: e.imageRejected },
      });
      const webp = await sharp({ create: { width: 4, height: 4, channels: 3, background: '#000' } })
        .webp()
        .toBuffer();
      expect((await upload('staff', target.uid, dataUrl(webp, 'image/jpeg'))).status).toBe(400);
      const jpeg = await sharp({ create: { width: 4, height: 4, channels: 3, background: '#000' } })
        .jpeg()
        .toBuffer();
      expect((await upload('staff', target.uid, dataUrl(jpeg, 'image/png'))).status).toBe(200);
      const huge = Buffer.concat([await pngOf(4, 4), Buffer.alloc(5_000_001 - (await pngOf(4, 4)).length)]);
      const tooBig = await upload('staff', target.uid, dataUrl(huge));
      expect(tooBig.status).toBe(400);
      expect(tooBig.body).toEqual({ error: expect.stringMatching(JAPANESE) });
      expect((await upload('staff', target.uid, 'not a data url')).status).toBe(400);
    });

    it('follows product.md §6: own picture for roles 1 to 3 and 201, others’ for those who manage them', async () => {
      const png = dataUrl(await pngOf(10, 10));
      const cases: [string, string, number][] = [
        ['man', 'man', 403],
        ['woman', 'woman', 200],
        ['woman', 'man', 403],
        ['staff6', 'staff6', 403],
        ['staff', 'staff', 200],
        ['admin', 'admin', 200],
        ['staff', 'man', 200],
        ['staff6', 'woman', 200],
        ['staff', 'staff6', 403],
        ['owner', 'staff6', 200],
      ];
      for (const [caller, target, status] of cases) {
        const reply = await upload(caller, people[target]!.uid, png);
        expect(reply.status, `${caller} -> ${target}`).toBe(status);
      }
      expect((await upload('staff', 999_999, png)).status).toBe(404);
    });
  });

  describe('the audit log', () => {
    it('records add, update, image and delete with who, when, before and after, and never a password', async () => {
      const row = await addFresh('staff', 'men', { pass: 'Audit-pass1', name: '監査 太郎', rank: 1 });
      await call(office.ctx.app, 'updateuser', {
        ssid: ssid.staff,
        uid: row.uid,
        ...form.men,
        id: row.id,
        name: '監査 次郎',
        rank: 5,
        pass: 'Audit-pass2',
      });
      await call(office.ctx.app, 'uploadUserImage', {
        ssid: ssid.staff,
        uid: row.uid,
        image: dataUrl(await pngOf(20, 20)),
      });
      await call(office.ctx.app, 'deluser', { ssid: ssid.admin, uid: row.uid });

      const rows = (await audit()).filter((entry) => entry.target.uid === row.uid).reverse();
      expect(rows.map((entry) => entry.action)).toEqual(['add', 'update', 'image', 'delete']);
      const staff = { uid: people.staff!.uid, name: people.staff!.name };
      expect(rows[0]).toMatchObject({
        actor: staff,
        before: null,
        after: { id: row.id, name: '監査 太郎', rank: 1, role: 101 },
      });
      expect(rows[1]).toMatchObject({
        actor: staff,
        before: { name: '監査 太郎', rank: 1 },
        after: { name: '監査 次郎', rank: 5 },
        password_reset: true,
      });
      expect(rows[2]).toMatchObject({ before: { image: false }, after: { image: true } });
      expect(rows[3]).toMatchObject({
        actor: { uid: people.admin!.uid },
        before: { name: '監査 次郎' },
        after: null,
        target: { uid: row.uid, role: 101 },
      });
      for (const entry of rows) expect(Date.parse(entry.date)).toBeGreaterThan(Date.now() - 60_000);
      const text = JSON.stringify(rows);
      expect(text).not.toMatch(/Audit-pass|argon|\$argon|hash/i);
    });

    it('writes nothing for a change that failed', async () => {
      const newest = async () => (await audit())[0]?.id;
      const before = await newest();
      await add('staff', { ...form.men, id: people.man!.loginId });
      await call(office.ctx.app, 'deluser', { ssid: ssid.staff, uid: 999_999 });
      await call(office.ctx.app, 'adduser', { ssid: ssid.man, ...form.men, id: freshId('men') });
      await call(office.ctx.app, 'updateuser', {
        ssid: ssid.staff,
        uid: people.man!.uid,
        ...form.men,
        id: people.woman!.loginId,
      });
      expect(await newest()).toBe(before);
    });
  });
});
