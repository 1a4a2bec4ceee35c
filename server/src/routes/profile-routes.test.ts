import { readdirSync } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { LOOKUPS, ProfileReply, ja, jaMember } from '@enishi/contract';
import { describe, expect, it } from 'vitest';
import { call } from '../test/app.js';
import { dataUrl, pngOf, useMemberOffice } from '../test/member-office.js';

const p = jaMember.profile;

describe('code tables, member profiles and photos', () => {
  const office = useMemberOffice();
  const { people, ssid, addFresh, audit } = office;
  const api = (caller: string, name: Parameters<typeof call>[1], body: Record<string, unknown>) =>
    call(office.ctx.app, name, { ssid: ssid[caller], ...body });
  const update = (caller: string, uid: number, profile: Record<string, unknown>) =>
    api(caller, 'profile/update', { uid, profile });

  describe('/api/lookups', () => {
    it('serves every fixed table and the club lists to anyone signed in, and nobody else', async () => {
      for (const caller of ['man', 'woman', 'staff6']) {
        const reply = await api(caller, 'lookups', {});
        expect(reply.status).toBe(200);
        const body = reply.body as Record<string, unknown>;
        for (const name of Object.keys(LOOKUPS)) expect(body[name], name).toEqual(LOOKUPS[name as 'areas']);
        expect(body).toHaveProperty('companies');
        expect(body).toHaveProperty('chargeStaff');
      }
      expect((await call(office.ctx.app, 'lookups', { ssid: 'nope' })).status).toBe(401);
    });

    it('lets the owner and admin replace a club list; staff and members may not', async () => {
      const companies = [
        { code: 1, label: '銀座クラブ 彩' },
        { code: 2, label: '株式会社ミナト' },
      ];
      expect((await api('staff', 'lookups/update', { list: 'companies', items: companies })).status).toBe(
        403,
      );
      expect((await api('man', 'lookups/update', { list: 'companies', items: companies })).status).toBe(403);
      expect(await api('owner', 'lookups/update', { list: 'companies', items: companies })).toMatchObject({
        status: 200,
        body: { items: companies },
      });
      const media = [{ code: 7, label: '彩 公式サイト', parent: 1 }];
      expect((await api('admin', 'lookups/update', { list: 'media', items: media })).body).toEqual({
        items: media,
      });
      expect(
        await api('owner', 'lookups/update', { list: 'media', items: [{ code: 8, label: 'x', parent: 99 }] }),
      ).toMatchObject({ status: 400, body: { error: p.lookups.badParent } });
      const duplicate = [...companies, { code: 2, label: '重複' }];
      expect(await api('owner', 'lookups/update', { list: 'companies', items: duplicate })).toMatchObject({
        status: 400,
        body: { error: p.lookups.duplicateCode },
      });
      expect(
        await api('owner', 'lookups/update', { list: 'companies', items: [{ code: 3, label: ' ' }] }),
      ).toMatchObject({ status: 400, body: { error: p.lookups.labelRequired } });
      await api('owner', 'lookups/update', { list: 'chargeStaff', items: [{ code: 1, label: '佐藤' }] });
      const lookups = (await api('man', 'lookups', {})).body as Record<string, unknown>;
      expect(lookups.companies).toEqual(companies);
      expect(lookups.media).toEqual(media);
      expect(lookups.chargeStaff).toEqual([{ code: 1, label: '佐藤' }]);
    });
  });

  describe('/api/profile/get and /api/profile/update', () => {
    it('staff read and change a member profile; the reply is the stored profile', async () => {
      const woman = await addFresh('staff', 'women');
      const empty = ProfileReply.parse((await api('staff6', 'profile/get', { uid: woman.uid })).body);
      expect(empty).toMatchObject({ uid: woman.uid, role: 201, photos: [], history: [] });
      expect(empty.profile.height).toBeNull();

      const reply = await update('staff', woman.uid, {
        birth_date: '1996-04-01',
        height: 162,
        bust: 84,
        cup: 4,
        area: 1,
        prefecture: 13,
        languages: [2, 1],
        sake: 2,
        pr: ' 週末はゴルフに行きます ',
        sales_note: '紹介者経由',
      });
      expect(reply.status).toBe(200);
      const saved = ProfileReply.parse(reply.body).profile;
      expect(saved).toMatchObject({
        height: 162,
        languages: [1, 2],
        pr: '週末はゴルフに行きます',
        prefecture: 13,
      });
      const again = ProfileReply.parse((await api('staff', 'profile/get', { uid: woman.uid })).body).profile;
      expect(again).toEqual(saved);
      // Another update keeps what it does not name, and null clears a field.
      const cleared = ProfileReply.parse((await update('staff', woman.uid, { cup: null })).body).profile;
      expect(cleared).toMatchObject({ cup: null, height: 162 });
    });

    it('a member reads their own profile without the sales notes, and no one else’s', async () => {
      await update('staff', people.woman!.uid, { nickname: 'はな', sales_note: '内部メモ', importance: 1 });
      const own = ProfileReply.parse((await api('woman', 'profile/get', { uid: people.woman!.uid })).body);
      expect(own.profile).toMatchObject({
        nickname: 'はな',
        sales_note: '',
        importance: null,
        women_rank: null,
      });
      expect(own.history).toEqual([]);
      expect((await api('man', 'profile/get', { uid: people.woman!.uid })).status).toBe(404);
      expect((await api('woman', 'profile/get', { uid: people.man!.uid })).status).toBe(404);
      expect((await update('woman', people.woman!.uid, { nickname: '自分で' })).status).toBe(403);
      expect((await update('man', people.woman!.uid, { nickname: '他人' })).status).toBe(403);
    });

    it('staff records and unknown users have no profile (404)', async () => {
      expect((await api('staff', 'profile/get', { uid: people.staff6!.uid })).status).toBe(404);
      expect((await update('owner', people.staff!.uid, { height: 170 })).status).toBe(404);
      expect((await api('staff', 'profile/get', { uid: 999_999 })).status).toBe(404);
    });

    it('refuses bad values with a Japanese error and writes nothing', async () => {
      const woman = await addFresh('staff', 'women');
      const cases: [Record<string, unknown>, string][] = [
        [{ area: 10 }, p.errors.badCode(p.fields.area)],
        [{ women_rank: 9 }, p.errors.badCode(p.fields.women_rank)],
        [{ entry_type: -1 }, p.errors.badCode(p.fields.entry_type)],
        [{ entry_type: null }, p.errors.badCode(p.fields.entry_type)],
        [{ height: 400 }, p.errors.outOfRange(p.fields.height, 120, 220)],
        [{ birth_date: '2001-02-29' }, p.errors.badDate(p.fields.birth_date)],
        [{ languages: [1, 99] }, p.errors.badCode(p.fields.languages)],
        [{ pr: 'あ'.repeat(1001) }, p.errors.tooLong(p.fields.pr, 1000)],
        [{ company: 4242 }, p.errors.badCode(p.fields.company)],
        [{ height: 170, password: 'x' }, ja.errors.unknownField],
      ];
      for (const [profile, error] of cases) {
        expect(await update('staff', woman.uid, profile), JSON.stringify(profile)).toMatchObject({
          status: 400,
          body: { error },
        });
      }
      const stored = ProfileReply.parse((await api('staff', 'profile/get', { uid: woman.uid })).body).profile;
      expect(stored.height).toBeNull();
    });

    it('audits each change and keeps the rank and entry-type history with who, from and to', async () => {
      const woman = await addFresh('staff', 'women');
      await update('staff', woman.uid, { women_rank: 3, entry_type: 1, height: 158 });
      await update('staff6', woman.uid, { women_rank: 6, height: 158 });
      await update('staff6', woman.uid, { height: 158 });
      const got = ProfileReply.parse((await api('staff', 'profile/get', { uid: woman.uid })).body);
      expect(got.history.map(({ field, from, to, actor }) => ({ field, from, to, actor }))).toEqual([
        { field: 'women_rank', from: 3, to: 6, actor: people.staff6!.name },
        { field: 'entry_type', from: 0, to: 1, actor: people.staff!.name },
        { field: 'women_rank', from: 0, to: 3, actor: people.staff!.name },
      ]);
      const rows = (await audit()).filter((row) => row.target.uid === woman.uid && row.action === 'profile');
      // The unchanged third update wrote nothing.
      expect(rows.map((row) => [row.actor.name, row.changes])).toEqual([
        [people.staff6!.name, { women_rank: [3, 6] }],
        [people.staff!.name, { women_rank: [0, 3], entry_type: [0, 1], height: [null, 158] }],
      ]);
    });
  });

  describe('photos', () => {
    const add = async (caller: string, uid: number, bytes: Buffer) =>
      api(caller, 'profile/photo/add', { uid, image: dataUrl(bytes) });

    it('are re-encoded without metadata, served by signed URL, ordered and deleted', async () => {
      const woman = await addFresh('staff', 'women');
      const first = ProfileReply.parse((await add('staff', woman.uid, await pngOf(1200, 1600))).body);
      expect(first.photos).toHaveLength(1);
      const url = first.photos[0]!.url;
      expect(url).toMatch(/^\/media\/photo\/[A-Za-z0-9_-]{22}\?e=\d+&s=[A-Za-z0-9_-]{43}$/);
      const image = await office.ctx.app.inject({ method: 'GET', url });
      expect(image.statusCode).toBe(200);
      const meta = await sharp(image.rawPayload).metadata();
      expect([meta.format, meta.width, meta.height, meta.exif]).toEqual(['jpeg', 1200, 1600, undefined]);
      expect(image.rawPayload.includes('secret-exif-marker')).toBe(false);
      const tampered = url.replace(/s=./, (s) => (s === 's=A' ? 's=B' : 's=A'));
      expect((await office.ctx.app.inject({ method: 'GET', url: tampered })).statusCode).toBe(403);
      // A photo URL is no talk-image URL.
      expect(
        (await office.ctx.app.inject({ method: 'GET', url: url.replace('/photo/', '/') })).statusCode,
      ).toBe(403);

      const second = ProfileReply.parse((await add('staff', woman.uid, await pngOf(40, 40))).body).photos;
      const ids = second.map((photo) => photo.id);
      const reordered = await api('staff', 'profile/photo/order', {
        uid: woman.uid,
        ids: [...ids].reverse(),
      });
      expect(ProfileReply.parse(reordered.body).photos.map((photo) => photo.id)).toEqual([...ids].reverse());
      expect((await api('staff', 'profile/photo/order', { uid: woman.uid, ids: [ids[0]] })).status).toBe(400);

      const own = ProfileReply.parse((await api('staff', 'profile/get', { uid: woman.uid })).body);
      expect(own.photos).toHaveLength(2);
      const after = await api('staff', 'profile/photo/delete', { uid: woman.uid, id: ids[0] });
      expect(ProfileReply.parse(after.body).photos.map((photo) => photo.id)).toEqual([ids[1]]);
      expect((await office.ctx.app.inject({ method: 'GET', url })).statusCode).toBe(404);
      expect((await api('staff', 'profile/photo/delete', { uid: woman.uid, id: ids[0] })).status).toBe(404);
      const photoAudit = (await audit()).filter(
        (row) => row.target.uid === woman.uid && row.action === 'photo',
      );
      expect(photoAudit).toHaveLength(4);
    });

    it('go with their member: rows and files', async () => {
      const woman = await addFresh('staff', 'women');
      const added = ProfileReply.parse((await add('staff', woman.uid, await pngOf(30, 40))).body).photos[0]!;
      const folder = path.join(office.ctx.dataDir, 'media', added.id.slice(0, 2));
      const files = () => readdirSync(folder).filter((name) => name.startsWith(added.id));
      expect(files()).toHaveLength(1);
      expect((await api('staff', 'deluser', { uid: woman.uid })).status).toBe(200);
      expect(files()).toEqual([]);
      expect((await office.ctx.app.inject({ method: 'GET', url: added.url })).statusCode).toBe(404);
    });

    it('only staff add them, and only images', async () => {
      const png = await pngOf(10, 10);
      expect((await add('woman', people.woman!.uid, png)).status).toBe(403);
      expect((await add('man', people.woman!.uid, png)).status).toBe(403);
      expect((await add('staff', people.staff6!.uid, png)).status).toBe(404);
      const text = Buffer.from('not an image at all');
      expect(await add('staff', people.woman!.uid, text)).toMatchObject({
        status: 400,
        body: { error: ja.errors.badImage },
      });
    });
  });
});
