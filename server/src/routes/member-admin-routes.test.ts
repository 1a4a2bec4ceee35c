import sharp from 'sharp';
import {
  AuditLogReply,
  MemberForm,
  SOCKET_CLOSE,
  SearchUserReply,
  UserRowsReply,
  firstErrorMessage,
  ja,
} from '@enishi/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTestContext, createUser, login, type TestContext, type TestUser } from '../test/app.js';
import { listen, TestSocket } from '../test/socket.js';

const e = ja.members.errors;
const JAPANESE = /[\u3040-\u30ff\u4e00-\u9faf]/;

/** A valid form per kind; tests change one field at a time. */
const form = {
  men: { id: 'new-man', name: '新規 太郎', pass: 'Pass-1234', rank: 2, role: 101, introducer: '山田' },
  women: { id: 'new-woman', name: '新規 花子', pass: 'Pass-1234', rank: '', role: 201, introducer: '' },
  staff: { id: 'new-staff', name: '新規スタッフ', pass: 'Pass-1234', rank: 0, role: 3, introducer: '' },
} as const;
type Kind = keyof typeof form;

async function pngOf(width: number, height: number): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: '#c8a663' } })
    .withMetadata({ exif: { IFD0: { Copyright: 'secret-exif-marker' } } })
    .png()
    .toBuffer();
}
const dataUrl = (bytes: Buffer, mime = 'image/png') => `data:${mime};base64,${bytes.toString('base64')}`;

describe('member and staff administration', () => {
  let ctx: TestContext;
  const people: Record<string, TestUser> = {};
  const ssid: Record<string, string> = {};
  let counter = 0;
  /** A fresh unique login ID. */
  const freshId = (prefix: string) => `${prefix}-${++counter}`;

  beforeAll(async () => {
    ctx = await createTestContext();
    const seed: [string, number, number?][] = [
      ['owner', 2],
      ['admin', 1],
      ['staff', 3],
      ['staff6', 6],
      ['man', 101, 3],
      ['woman', 201],
    ];
    for (const [key, role, rank] of seed) {
      people[key] = await createUser(ctx.app, { loginId: `t-${key}`, role, rank, name: `テスト ${key}` });
      ssid[key] = await login(ctx.app, people[key]!);
    }
  });
  afterAll(() => ctx.close());

  const add = (caller: string, body: Record<string, unknown>) =>
    call(ctx.app, 'adduser', { ssid: ssid[caller], ...body });
  const addFresh = async (caller: string, kind: Kind, extra: Record<string, unknown> = {}) => {
    const reply = await add(caller, { ...form[kind], id: freshId(kind), ...extra });
    expect(reply.status, JSON.stringify(reply.body)).toBe(200);
    return UserRowsReply.parse(reply.body).rows[0]!;
  };
  const audit = async () =>
    AuditLogReply.parse((await call(ctx.app, 'auditlog', { ssid: ssid.owner })).body).rows;

  describe('who may do what (SPEC §6)', () => {
    // Expected status per caller for [men, women, staff] records.
    const matrix: [string, [number, number, number]][] = [
      ['man', [403, 403, 403]],
      ['woman', [403, 403, 403]],
      ['staff6', [200, 200, 403]],
      ['staff', [200, 200, 403]],
      ['admin', [200, 200, 403]],
      ['owner', [200, 200, 200]],
    ];
    const kinds: Kind[] = ['men', 'women', 'staff'];

    it.each(matrix)('adduser, searchuser, updateuser, deluser as %s', async (caller, expected) => {
      for (const [index, kind] of kinds.entries()) {
        const status = expected[index]!;
        const target = await addFresh('owner', kind);
        const added = await add(caller, { ...form[kind], id: freshId(kind) });
        expect(added.status, `adduser ${kind}`).toBe(status);
        const searched = await call(ctx.app, 'searchuser', {
          ssid: ssid[caller],
          keyword: '',
          role: form[kind].role,
        });
        expect(searched.status, `searchuser ${kind}`).toBe(status);
        const updated = await call(ctx.app, 'updateuser', {
          ssid: ssid[caller],
          uid: target.uid,
          ...form[kind],
          id: target.id,
          pass: '',
        });
        expect(updated.status, `updateuser ${kind}`).toBe(status);
        const deleted = await call(ctx.app, 'deluser', { ssid: ssid[caller], uid: target.uid });
        expect(deleted.status, `deluser ${kind}`).toBe(status);
        if (status === 403) expect(deleted.body).toEqual({ error: ja.errors.forbidden });
      }
    });

    it('answers 401 to every call without a valid session, before reading the body', async () => {
      for (const name of [
        'adduser',
        'updateuser',
        'searchuser',
        'deluser',
        'uploadUserImage',
        'auditlog',
        'add_conversation',
      ]) {
        for (const body of [{}, { ssid: 'x'.repeat(43) }, { ssid: 'nonsense', role: 101 }]) {
          expect(await call(ctx.app, name, body), name).toMatchObject({
            status: 401,
            body: { error: ja.errors.unauthorized },
          });
        }
      }
    });

    it('answers 404 for a record that does not exist, to staff', async () => {
      for (const name of ['deluser', 'updateuser']) {
        const reply = await call(ctx.app, name, {
          ssid: ssid.staff,
          uid: 999_999,
          ...(name === 'updateuser' ? form.men : {}),
        });
        expect(reply, name).toMatchObject({ status: 404, body: { error: ja.errors.notFound } });
      }
    });

    it('answers 403, not 404, to members whatever the uid', async () => {
      const reply = await call(ctx.app, 'deluser', { ssid: ssid.man, uid: 999_999 });
      expect(reply.status).toBe(403);
    });

    it('shows the audit log to the owner only', async () => {
      for (const caller of ['man', 'woman', 'staff6', 'staff', 'admin']) {
        expect((await call(ctx.app, 'auditlog', { ssid: ssid[caller] })).status, caller).toBe(403);
      }
      expect((await call(ctx.app, 'auditlog', { ssid: ssid.owner, page: 0 })).status).toBe(200);
    });
  });

  describe('adduser', () => {
    it('registers a man with his rank, and gives him his talk with the staff desk', async () => {
      const password = 'Pass-1234';
      const row = await addFresh('staff', 'men', { pass: password, rank: 4 });
      expect(row).toMatchObject({ role: 101, rank: 4, name: '新規 太郎', introducer: '山田', image: null });
      const ssidOfNew = await login(ctx.app, {
        uid: row.uid,
        loginId: row.id,
        password,
        role: 101,
        name: row.name,
      });
      const desk = await call(ctx.app, 'conversations', {
        ssid: ssidOfNew,
        type: 'staff',
        search: '',
        page: 0,
      });
      expect((desk.body as { rows: unknown[] }).rows).toHaveLength(1);
    });

    it('registers a woman with role 201 and no rank', async () => {
      expect(await addFresh('staff', 'women', { rank: 5 })).toMatchObject({ role: 201, rank: 0 });
    });

    it('registers staff always as role 3 with rank 0, whatever role the form sends (SPEC §9)', async () => {
      for (const role of [1, 2, 3, 6]) {
        expect(await addFresh('owner', 'staff', { role, rank: 6 })).toMatchObject({ role: 3, rank: 0 });
      }
    });

    it('refuses a login ID that is taken, with a clear message', async () => {
      const reply = await add('staff', { ...form.men, id: people.man!.loginId });
      expect(reply).toMatchObject({ status: 400, body: { error: e.idTaken } });
    });

    it('never answers with a password or its hash', async () => {
      const reply = await add('staff', { ...form.men, id: freshId('men'), pass: 'Unique-pass9' });
      expect(JSON.stringify(reply.body)).not.toMatch(/Unique-pass9|argon|password|hash/i);
    });
  });

  describe('the member form rules (SPEC §5), the same on the server as in the form', () => {
    const cases: [string, Kind, Record<string, unknown>, string][] = [
      ['no name', 'men', { name: undefined }, e.nameRequired],
      ['a blank name', 'women', { name: '   ' }, e.nameRequired],
      ['a name over 50 characters', 'staff', { name: 'あ'.repeat(51) }, e.nameTooLong],
      ['no ID', 'men', { id: undefined }, e.idRequired],
      ['an empty ID', 'men', { id: '' }, e.idRequired],
      ['an ID with a space', 'women', { id: 'ab cd' }, e.idInvalid],
      ['an ID in Japanese', 'women', { id: 'やまだ' }, e.idInvalid],
      ['an ID with an underscore', 'staff', { id: 'a_b' }, e.idInvalid],
      ['an ID of 25 characters', 'men', { id: 'a'.repeat(25) }, e.idTooLong],
      ['no password', 'men', { pass: undefined }, e.passRequired],
      ['an empty password', 'women', { pass: '' }, e.passRequired],
      ['a password with !', 'staff', { pass: 'abc!def' }, e.passInvalid],
      ['a password with a space', 'men', { pass: 'abc def' }, e.passInvalid],
      ['a password of 25 characters', 'men', { pass: 'a'.repeat(25) }, e.passTooLong],
      ['a man without a rank', 'men', { rank: '' }, e.rankRequired],
      ['a man with rank 0', 'men', { rank: 0 }, e.rankRequired],
      ['a man with rank 7', 'men', { rank: 7 }, e.rankRequired],
      ['an introducer of 25 characters', 'women', { introducer: 'あ'.repeat(25) }, e.introducerTooLong],
      ['an unknown role', 'men', { role: 7 }, e.roleInvalid],
      ['an unknown field', 'men', { admin: true }, ja.errors.unknownField],
    ];

    it.each(cases)('refuses %s with 400 and the form’s own message', async (_case, kind, change, message) => {
      const fields: Record<string, unknown> = { ...form[kind], id: freshId(kind), ...change };
      for (const key of Object.keys(change)) if (change[key] === undefined) delete fields[key];
      const reply = await add('owner', fields);
      expect(reply).toEqual(expect.objectContaining({ status: 400, body: { error: message } }));
      // The web form runs the same schema and shows the same text.
      const checked = MemberForm.add.safeParse(fields);
      expect(checked.success).toBe(false);
      expect(firstErrorMessage(checked.error!)).toBe(message);
    });

    it.each([
      ['the longest ID and password', { id: 'A-'.repeat(12), pass: 'a.?/-Z9'.padEnd(24, 'x') }],
      ['an introducer of 24 characters', { introducer: 'あ'.repeat(24) }],
      ['a rank sent as digits', { rank: '6' }],
    ])('accepts %s', async (_case, change) => {
      const fields = { ...form.men, id: freshId('men'), ...change };
      expect(MemberForm.add.safeParse(fields).success).toBe(true);
      const reply = await add('staff', fields);
      expect(reply.status).toBe(200);
    });

    it('makes the password optional on edit only', async () => {
      const target = await addFresh('staff', 'women');
      const { pass: _pass, ...withoutPass } = form.women;
      for (const pass of [undefined, '', null]) {
        const body = {
          ssid: ssid.staff,
          uid: target.uid,
          ...withoutPass,
          id: target.id,
          ...(pass === undefined ? {} : { pass }),
        };
        expect((await call(ctx.app, 'updateuser', body)).status).toBe(200);
        expect(MemberForm.edit.safeParse({ ...withoutPass, id: target.id, pass }).success).toBe(true);
      }
      const bad = await call(ctx.app, 'updateuser', {
        ssid: ssid.staff,
        uid: target.uid,
        ...form.women,
        id: target.id,
        pass: 'ab!',
      });
      expect(bad).toMatchObject({ status: 400, body: { error: e.passInvalid } });
    });
  });

  describe('updateuser', () => {
    it('changes name, ID, rank and introducer, and keeps the password when none is given', async () => {
      const target = await addFresh('staff', 'men', { pass: 'Keep-this1' });
      const newId = freshId('renamed');
      const reply = await call(ctx.app, 'updateuser', {
        ssid: ssid.staff,
        uid: String(target.uid),
        id: newId,
        name: '改名 次郎',
        pass: '',
        rank: 6,
        role: 101,
        introducer: '',
      });
      expect(reply.status).toBe(200);
      expect(UserRowsReply.parse(reply.body).rows[0]).toMatchObject({
        id: newId,
        name: '改名 次郎',
        rank: 6,
        introducer: '',
      });
      expect((await call(ctx.app, 'login', { id: newId, password: 'Keep-this1' })).status).toBe(200);
    });

    it('sets a new password and ends the user’s sessions (their next call is a 401)', async () => {
      const target = await addFresh('staff', 'women', { pass: 'Old-pass1' });
      const user = {
        uid: target.uid,
        loginId: target.id,
        password: 'Old-pass1',
        role: 201,
        name: target.name,
      };
      const theirs = await login(ctx.app, user);
      const reply = await call(ctx.app, 'updateuser', {
        ssid: ssid.staff,
        uid: target.uid,
        ...form.women,
        id: target.id,
        pass: 'New-pass2',
      });
      expect(reply.status).toBe(200);
      expect((await call(ctx.app, 'getuser', { ssid: theirs, uid: target.uid })).status).toBe(401);
      expect((await call(ctx.app, 'login', { id: target.id, password: 'Old-pass1' })).status).toBe(401);
      expect((await call(ctx.app, 'login', { id: target.id, password: 'New-pass2' })).status).toBe(200);
    });

    it('keeps the owner logged in when they change their own password', async () => {
      const me = await createUser(ctx.app, { loginId: freshId('owner'), role: 2, name: '二人目 オーナー' });
      const mine = await login(ctx.app, me);
      const reply = await call(ctx.app, 'updateuser', {
        ssid: mine,
        uid: me.uid,
        ...form.staff,
        id: me.loginId,
        pass: 'Mine-new1',
      });
      expect(reply.status).toBe(200);
      expect(UserRowsReply.parse(reply.body).rows[0]!.role).toBe(2);
      expect((await call(ctx.app, 'getuser', { ssid: mine, uid: me.uid })).status).toBe(200);
    });

    it('never changes the kind or the role of a record', async () => {
      const man = await addFresh('staff', 'men');
      const asWoman = await call(ctx.app, 'updateuser', {
        ssid: ssid.owner,
        uid: man.uid,
        ...form.women,
        id: man.id,
      });
      expect(asWoman).toMatchObject({ status: 400, body: { error: e.kindMismatch } });
      const asStaff = await call(ctx.app, 'updateuser', {
        ssid: ssid.owner,
        uid: man.uid,
        ...form.staff,
        id: man.id,
      });
      expect(asStaff.status).toBe(400);
      const staff = await addFresh('owner', 'staff');
      const promoted = await call(ctx.app, 'updateuser', {
        ssid: ssid.owner,
        uid: staff.uid,
        ...form.staff,
        id: staff.id,
        role: 2,
      });
      expect(UserRowsReply.parse(promoted.body).rows[0]!.role).toBe(3);
    });

    it('refuses an ID another user has', async () => {
      const target = await addFresh('staff', 'men');
      const reply = await call(ctx.app, 'updateuser', {
        ssid: ssid.staff,
        uid: target.uid,
        ...form.men,
        id: people.woman!.loginId,
      });
      expect(reply).toMatchObject({ status: 400, body: { error: e.idTaken } });
    });
  });

  describe('searchuser', () => {
    let found: TestUser[];
    beforeAll(async () => {
      found = [];
      for (const [name, rank] of [
        ['検索 一郎', 1],
        ['検索 二郎', 2],
        ['別名 三郎', 2],
      ] as const) {
        const row = await addFresh('staff', 'men', { name, rank, id: freshId('find') });
        found.push({ uid: row.uid, loginId: row.id, password: '', role: 101, name });
      }
    });

    const search = async (body: Record<string, unknown>) => {
      const reply = await call(ctx.app, 'searchuser', { ssid: ssid.staff, role: 101, ...body });
      expect(reply.status).toBe(200);
      return SearchUserReply.parse(reply.body);
    };

    it('finds by part of the name or of the login ID, and counts', async () => {
      const byName = await search({ keyword: '検索' });
      expect(byName.rows.map((row) => row.name).sort()).toEqual(['検索 一郎', '検索 二郎']);
      expect(byName.count).toBe(2);
      const byId = await search({ keyword: found[2]!.loginId });
      expect(byId.rows.map((row) => row.uid)).toEqual([found[2]!.uid]);
    });

    it('filters men by rank, and lists everyone of the kind without a keyword', async () => {
      const rank2 = await search({ keyword: '検索', rank: 2 });
      expect(rank2.rows.map((row) => row.name)).toEqual(['検索 二郎']);
      expect((await search({ keyword: '検索', rank: '1' })).rows.map((row) => row.name)).toEqual([
        '検索 一郎',
      ]);
      const all = await search({});
      expect(all.count).toBe(all.rows.length);
      expect(all.rows.every((row) => row.role === 101)).toBe(true);
    });

    it('answers an empty list for no hits, and takes % and _ literally', async () => {
      expect(await search({ keyword: 'いない人' })).toEqual({ rows: [], count: 0 });
      expect((await search({ keyword: '%' })).count).toBe(0);
    });

    it('lists staff of every role 1 to 6 for the owner', async () => {
      const reply = await call(ctx.app, 'searchuser', { ssid: ssid.owner, keyword: 'テスト', role: 3 });
      const roles = SearchUserReply.parse(reply.body)
        .rows.map((row) => row.role)
        .sort();
      expect(roles).toEqual([1, 2, 3, 6]);
    });

    it('refuses a role that is no kind of record', async () => {
      expect((await call(ctx.app, 'searchuser', { ssid: ssid.staff, role: 99 })).status).toBe(400);
    });
  });

  describe('deluser', () => {
    it('deletes, ends every session of the user and closes their chat sockets', async () => {
      const target = await addFresh('staff', 'men', { pass: 'Bye-bye1' });
      const theirs = await login(ctx.app, {
        uid: target.uid,
        loginId: target.id,
        password: 'Bye-bye1',
        role: 101,
        name: target.name,
      });
      const base = await listen(ctx.app);
      const socket = await TestSocket.session(base, theirs);
      const reply = await call(ctx.app, 'deluser', { ssid: ssid.staff, uid: target.uid });
      expect(reply.status).toBe(200);
      expect(UserRowsReply.parse(reply.body).rows[0]).toMatchObject({ uid: target.uid });
      expect((await call(ctx.app, 'getuser', { ssid: theirs, uid: target.uid })).status).toBe(401);
      expect((await socket.closed).code).toBe(SOCKET_CLOSE.sessionEnded);
      expect((await call(ctx.app, 'deluser', { ssid: ssid.staff, uid: target.uid })).status).toBe(404);
    });

    it('does not let anyone delete themselves', async () => {
      const reply = await call(ctx.app, 'deluser', { ssid: ssid.owner, uid: people.owner!.uid });
      expect(reply).toMatchObject({ status: 400, body: { error: e.selfDelete } });
    });
  });

  describe('uploadUserImage', () => {
    const upload = (caller: string, uid: number, image: string) =>
      call(ctx.app, 'uploadUserImage', { ssid: ssid[caller], uid, image });

    it('stores a picture shrunk to fit 200x200, as JPEG without metadata, behind a signed URL', async () => {
      const target = await addFresh('staff', 'women');
      const reply = await upload('staff', target.uid, dataUrl(await pngOf(800, 400)));
      expect(reply.status).toBe(200);
      const row = UserRowsReply.parse(reply.body).rows[0]!;
      expect(row.image).toMatch(/^\/media\/profile\/[A-Za-z0-9_-]{22}\?e=\d+&s=[A-Za-z0-9_-]{43}$/);
      expect(row.user_image).toBe(row.image);

      const image = await ctx.app.inject({ method: 'GET', url: row.image! });
      expect(image.statusCode).toBe(200);
      expect(image.headers['content-type']).toBe('image/jpeg');
      const meta = await sharp(image.rawPayload).metadata();
      expect([meta.format, meta.width, meta.height]).toEqual(['jpeg', 200, 100]);
      expect(meta.exif).toBeUndefined();
      expect(image.rawPayload.includes('secret-exif-marker')).toBe(false);

      // getuser and searchuser show the picture as a URL too.
      const got = await call(ctx.app, 'getuser', { ssid: ssid.staff, uid: target.uid });
      expect((got.body as { rows: { image: string }[] }).rows[0]!.image).toMatch(/^\/media\/profile\//);

      const tampered = row.image!.replace(/s=./, (s) => (s === 's=A' ? 's=B' : 's=A'));
      expect((await ctx.app.inject({ method: 'GET', url: tampered })).statusCode).toBe(403);

      // A replaced picture is gone.
      await upload('staff', target.uid, dataUrl(await pngOf(50, 50)));
      expect((await ctx.app.inject({ method: 'GET', url: row.image! })).statusCode).toBe(404);
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

    it('follows SPEC §6: own picture for roles 1 to 3 and 201, others’ for those who manage them', async () => {
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
      await call(ctx.app, 'updateuser', {
        ssid: ssid.staff,
        uid: row.uid,
        ...form.men,
        id: row.id,
        name: '監査 次郎',
        rank: 5,
        pass: 'Audit-pass2',
      });
      await call(ctx.app, 'uploadUserImage', {
        ssid: ssid.staff,
        uid: row.uid,
        image: dataUrl(await pngOf(20, 20)),
      });
      await call(ctx.app, 'deluser', { ssid: ssid.admin, uid: row.uid });

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
      await call(ctx.app, 'deluser', { ssid: ssid.staff, uid: 999_999 });
      await call(ctx.app, 'adduser', { ssid: ssid.man, ...form.men, id: freshId('men') });
      await call(ctx.app, 'updateuser', {
        ssid: ssid.staff,
        uid: people.man!.uid,
        ...form.men,
        id: people.woman!.loginId,
      });
      expect(await newest()).toBe(before);
    });
  });
});
