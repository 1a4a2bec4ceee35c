import { SOCKET_CLOSE, SearchUserReply, UserRowsReply, jaMember } from '@enishi/contract';
import { beforeAll, describe, expect, it } from 'vitest';
import { call, createUser, login, type TestUser } from '../test/app.js';
import { listen, TestSocket } from '../test/socket.js';
import { form, useMemberOffice } from '../test/member-office.js';

const e = jaMember.members.errors;

describe('member and staff administration: editing, searching, deleting', () => {
  const office = useMemberOffice();
  const { people, ssid, freshId, addFresh } = office;

  describe('updateuser', () => {
    it('changes name, ID, rank and introducer, and keeps the password when none is given', async () => {
      const target = await addFresh('staff', 'men', { pass: 'Keep-this1' });
      const newId = freshId('renamed');
      const reply = await call(office.ctx.app, 'updateuser', {
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
      expect((await call(office.ctx.app, 'login', { id: newId, password: 'Keep-this1' })).status).toBe(200);
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
      const theirs = await login(office.ctx.app, user);
      const reply = await call(office.ctx.app, 'updateuser', {
        ssid: ssid.staff,
        uid: target.uid,
        ...form.women,
        id: target.id,
        pass: 'New-pass2',
      });
      expect(reply.status).toBe(200);
      expect((await call(office.ctx.app, 'getuser', { ssid: theirs, uid: target.uid })).status).toBe(401);
      expect((await call(office.ctx.app, 'login', { id: target.id, password: 'Old-pass1' })).status).toBe(
        401,
      );
      expect((await call(office.ctx.app, 'login', { id: target.id, password: 'New-pass2' })).status).toBe(
        200,
      );
    });

    it('keeps the owner logged in when they change their own password', async () => {
      const me = await createUser(office.ctx.app, {
        loginId: freshId('owner'),
        role: 2,
        name: '二人目 オーナー',
      });
      const mine = await login(office.ctx.app, me);
      const reply = await call(office.ctx.app, 'updateuser', {
        ssid: mine,
        uid: me.uid,
        ...form.staff,
        id: me.loginId,
        pass: 'Mine-new1',
      });
      expect(reply.status).toBe(200);
      expect(UserRowsReply.parse(reply.body).rows[0]!.role).toBe(2);
      expect((await call(office.ctx.app, 'getuser', { ssid: mine, uid: me.uid })).status).toBe(200);
    });

    it('never changes the kind or the role of a record', async () => {
      const man = await addFresh('staff', 'men');
      const asWoman = await call(office.ctx.app, 'updateuser', {
        ssid: ssid.owner,
        uid: man.uid,
        ...form.women,
        id: man.id,
      });
      expect(asWoman).toMatchObject({ status: 400, body: { error: e.kindMismatch } });
      const asStaff = await call(office.ctx.app, 'updateuser', {
        ssid: ssid.owner,
        uid: man.uid,
        ...form.staff,
        id: man.id,
      });
      expect(asStaff.status).toBe(400);
      const staff = await addFresh('owner', 'staff');
      const promoted = await call(office.ctx.app, 'updateuser', {
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
      const reply = await call(office.ctx.app, 'updateuser', {
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
      const reply = await call(office.ctx.app, 'searchuser', { ssid: ssid.staff, role: 101, ...body });
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
      const reply = await call(office.ctx.app, 'searchuser', {
        ssid: ssid.owner,
        keyword: 'テスト',
        role: 3,
      });
      const roles = SearchUserReply.parse(reply.body)
        .rows.map((row) => row.role)
        .sort();
      expect(roles).toEqual([1, 2, 3, 6]);
    });

    it('refuses a role that is no kind of record', async () => {
      expect((await call(office.ctx.app, 'searchuser', { ssid: ssid.staff, role: 99 })).status).toBe(400);
    });
  });

  describe('deluser', () => {
    it('deletes, ends every session of the user and closes their chat sockets', async () => {
      const target = await addFresh('staff', 'men', { pass: 'Bye-bye1' });
      const theirs = await login(office.ctx.app, {
        uid: target.uid,
        loginId: target.id,
        password: 'Bye-bye1',
        role: 101,
        name: target.name,
      });
      const base = await listen(office.ctx.app);
      const socket = await TestSocket.session(base, theirs);
      const reply = await call(office.ctx.app, 'deluser', { ssid: ssid.staff, uid: target.uid });
      expect(reply.status).toBe(200);
      expect(UserRowsReply.parse(reply.body).rows[0]).toMatchObject({ uid: target.uid });
      expect((await call(office.ctx.app, 'getuser', { ssid: theirs, uid: target.uid })).status).toBe(401);
      expect((await socket.closed).code).toBe(SOCKET_CLOSE.sessionEnded);
      expect((await call(office.ctx.app, 'deluser', { ssid: ssid.staff, uid: target.uid })).status).toBe(404);
    });

    it('does not let anyone delete themselves', async () => {
      const reply = await call(office.ctx.app, 'deluser', { ssid: ssid.owner, uid: people.owner!.uid });
      expect(reply).toMatchObject({ status: 400, body: { error: e.selfDelete } });
    });
  });
});
