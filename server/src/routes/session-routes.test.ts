import { AUDIT_ACTIONS, jaMember, SOCKET_CLOSE, type SessionRow } from '@enishi/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sha256Hex } from '../lib/tokens.js';
import { call, createTestContext, createUser, type TestContext, type TestUser } from '../test/app.js';
import { listen, TestSocket } from '../test/socket.js';

/*
 * ログイン中の端末 (product.md §11.6): /api/sessions, /api/sessions/revoke, /api/sessions/revoke_others, and a
 * member's sessions ended by the staff who manage the record (/api/user/sessions, /api/user/sessions/revoke).
 */

const IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1';
const MAC =
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36';
const WINDOWS =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36 Edg/124.0.0.0';

describe('sessions people can see and end', () => {
  let ctx: TestContext;
  let origin: string;
  let man: TestUser;
  let woman: TestUser;
  let staff: TestUser;
  let owner: TestUser;

  beforeAll(async () => {
    // Behind a proxy on 127.0.0.1: the address shown is the client's, from X-Forwarded-For.
    ctx = await createTestContext({ env: { TRUST_PROXY: '127.0.0.1' } });
    origin = await listen(ctx.app);
    man = await createUser(ctx.app, { loginId: 'devices-man', role: 101, name: '端末 太郎' });
    woman = await createUser(ctx.app, { loginId: 'devices-woman', role: 201, name: '端末 花子' });
    staff = await createUser(ctx.app, { loginId: 'devices-staff', role: 3, name: '受付 一郎' });
    owner = await createUser(ctx.app, { loginId: 'devices-owner', role: 2, name: '代表' });
  });
  afterAll(() => ctx.close());

  const loginFrom = async (user: TestUser, userAgent: string, address = '203.0.113.7') => {
    const reply = await call(
      ctx.app,
      'login',
      { id: user.loginId, password: user.password },
      { 'user-agent': userAgent, 'x-forwarded-for': address },
    );
    expect(reply.status).toBe(200);
    return (reply.body as { session: string }).session;
  };
  const listOf = async (ssid: string) => {
    const reply = await call(ctx.app, 'sessions', { ssid });
    expect(reply.status).toBe(200);
    return (reply.body as { rows: SessionRow[] }).rows;
  };
  const works = async (ssid: string) => (await call(ctx.app, 'config', { ssid })).status === 200;

  it('lists one\u2019s sessions with the device, address and times, and never the token', async () => {
    const user = await createUser(ctx.app, { loginId: 'devices-list', role: 101, name: '端末 一覧' });
    const phone = await loginFrom(user, IPHONE, '198.51.100.20');
    const desk = await loginFrom(user, MAC, '198.51.100.30');
    await loginFrom(woman, WINDOWS);

    const rows = await listOf(desk);
    expect(rows).toHaveLength(2);
    const current = rows.find((row) => row.current);
    const other = rows.find((row) => !row.current);
    expect(current).toMatchObject({ device: 'Mac · Chrome', address: '198.51.100.30' });
    expect(other).toMatchObject({ device: 'iPhone · Safari', address: '198.51.100.20' });
    for (const row of rows) {
      expect(row.id).toMatch(/^[0-9a-f-]{36}$/);
      expect([phone, desk, sha256Hex(phone), sha256Hex(desk)]).not.toContain(row.id);
      expect(Date.parse(row.created_at)).not.toBeNaN();
      expect(Date.parse(row.last_seen_at)).toBeGreaterThanOrEqual(Date.parse(row.created_at));
    }
    // The phone sees the same two, with itself as current.
    expect((await listOf(phone)).find((row) => row.current)?.id).toBe(other!.id);
  });

  it('ends one session at once: its calls get 401 and its socket closes with 4403', async () => {
    const user = await createUser(ctx.app, { loginId: 'devices-one', role: 201, name: '端末 一台' });
    const kept = await loginFrom(user, MAC);
    const lost = await loginFrom(user, IPHONE);
    const socket = await TestSocket.session(origin, lost);
    const target = (await listOf(kept)).find((row) => row.device === 'iPhone · Safari')!;

    const reply = await call(ctx.app, 'sessions/revoke', { ssid: kept, id: target.id });
    expect(reply.status).toBe(200);
    expect((reply.body as { rows: SessionRow[] }).rows.map((row) => row.id)).not.toContain(target.id);
    expect((await socket.closed).code).toBe(SOCKET_CLOSE.sessionEnded);
    expect(await works(lost)).toBe(false);
    expect(await works(kept)).toBe(true);

    // The same id again: already ended, a 404 with Japanese text.
    const again = await call(ctx.app, 'sessions/revoke', { ssid: kept, id: target.id });
    expect(again).toMatchObject({ status: 404, body: { error: jaMember.sessions.errors.notFound } });
  });

  it('refuses to end someone else\u2019s session: 404, Japanese text, and it keeps working', async () => {
    const mine = await loginFrom(man, WINDOWS);
    const theirs = await loginFrom(woman, IPHONE);
    const theirId = (await listOf(theirs)).find((row) => row.current)!.id;
    const before = await listOf(theirs);

    const reply = await call(ctx.app, 'sessions/revoke', { ssid: mine, id: theirId });
    expect(reply).toMatchObject({ status: 404, body: { error: jaMember.sessions.errors.notFound } });
    expect(await works(theirs)).toBe(true);
    expect(await listOf(theirs)).toEqual(before.map((row) => ({ ...row, current: row.id === theirId })));

    // An id that is not one at all is refused with the same words, before the database is asked.
    for (const id of ['', 'not-an-id', 42, sha256Hex(theirs)]) {
      const bad = await call(ctx.app, 'sessions/revoke', { ssid: mine, id });
      expect(bad.status).toBe(400);
      expect(bad.body).toEqual({ error: jaMember.sessions.errors.notFound });
    }
    expect(await works(theirs)).toBe(true);
  });

  it('ends every other session and keeps the one asking', async () => {
    const user = await createUser(ctx.app, { loginId: 'devices-many', role: 101, name: '端末 多い' });
    const keep = await loginFrom(user, MAC);
    const others = [await loginFrom(user, IPHONE), await loginFrom(user, WINDOWS)];
    const socket = await TestSocket.session(origin, others[0]!);

    const reply = await call(ctx.app, 'sessions/revoke_others', { ssid: keep });
    expect(reply.status).toBe(200);
    expect((reply.body as { rows: SessionRow[] }).rows).toEqual([expect.objectContaining({ current: true })]);
    expect((await socket.closed).code).toBe(SOCKET_CLOSE.sessionEnded);
    for (const ssid of others) expect(await works(ssid)).toBe(false);
    expect(await works(keep)).toBe(true);
  });

  it('lets the staff who manage a member see and end all of their sessions, audited', async () => {
    const member = await createUser(ctx.app, { loginId: 'devices-lost', role: 201, name: '紛失 花子' });
    const phones = [await loginFrom(member, IPHONE), await loginFrom(member, MAC)];
    const staffSsid = await loginFrom(staff, WINDOWS);
    const ownerSsid = await loginFrom(owner, WINDOWS);

    const seen = await call(ctx.app, 'user/sessions', { ssid: staffSsid, user_id: member.uid });
    expect(seen.status).toBe(200);
    const rows = (seen.body as { rows: SessionRow[] }).rows;
    expect(rows.map((row) => row.device).sort()).toEqual(['Mac · Chrome', 'iPhone · Safari']);
    expect(rows.every((row) => !row.current)).toBe(true);

    const ended = await call(ctx.app, 'user/sessions/revoke', { ssid: staffSsid, user_id: member.uid });
    expect(ended).toMatchObject({ status: 200, body: { count: 2 } });
    for (const ssid of phones) expect(await works(ssid)).toBe(false);
    expect(await works(staffSsid)).toBe(true);

    const audit = await call(ctx.app, 'auditlog', { ssid: ownerSsid, page: 0 });
    const entry = (
      audit.body as { rows: { action: string; target: { uid: number }; actor: { uid: number } }[] }
    ).rows[0];
    expect(AUDIT_ACTIONS).toContain('sessions');
    expect(entry).toMatchObject({
      action: 'sessions',
      target: { uid: member.uid },
      actor: { uid: staff.uid },
    });
  });

  it('refuses members, staff for staff records, unknown users and oneself, and ends nothing', async () => {
    const manSsid = await loginFrom(man, IPHONE);
    const womanSsid = await loginFrom(woman, IPHONE);
    const staffSsid = await loginFrom(staff, WINDOWS);
    const ownerSsid = await loginFrom(owner, WINDOWS);
    const cases: [string, number, number][] = [
      [manSsid, woman.uid, 403],
      [manSsid, man.uid, 403],
      [staffSsid, owner.uid, 403],
      [staffSsid, 999_999, 404],
      [staffSsid, staff.uid, 403],
      [ownerSsid, owner.uid, 400],
    ];
    for (const [ssid, uid, status] of cases) {
      for (const name of ['user/sessions', 'user/sessions/revoke']) {
        const reply = await call(ctx.app, name, { ssid, user_id: uid });
        if (name === 'user/sessions' && status === 400) continue; // one may look at one's own
        expect(reply.status).toBe(status);
        expect((reply.body as { error: string }).error).toMatch(/[ぁ-んァ-ヶ一-龠]/);
      }
    }
    for (const ssid of [manSsid, womanSsid, staffSsid, ownerSsid]) expect(await works(ssid)).toBe(true);
    // The owner manages staff records.
    const byOwner = await call(ctx.app, 'user/sessions/revoke', { ssid: ownerSsid, user_id: staff.uid });
    expect(byOwner.status).toBe(200);
    expect(await works(staffSsid)).toBe(false);
  });
});
