import type { FastifyInstance } from 'fastify';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SessionRow } from '@enishi/contract';
import { sessions } from '../db/schema.js';
import { sha256Hex } from '../lib/tokens.js';
import { call, createTestContext, createUser, login, type TestContext, type TestUser } from '../test/app.js';
import { appsOnRedis, cutSubscriptions, testRedisUrl } from '../test/redis.js';
import { listen } from '../test/socket.js';
import { SESSION_CACHE_MS, SessionCache } from './session-cache.js';

/*
 * Sessions are cached in memory on each instance (session-cache.ts, decision 002), so every way a session
 * ends must reach every instance at once: two instances share the database and Redis, the session is
 * cached on B, it ends on A, and B's very next call is refused.
 */
const REDIS_URL = testRedisUrl(1);

describe('session cache across two instances', () => {
  let ctx: TestContext;
  let closeShared = async () => {};
  let a: FastifyInstance;
  let b: FastifyInstance;
  let owner: TestUser;
  let staff: TestUser;
  let counter = 0;
  let bUrl: string;

  beforeAll(async () => {
    ctx = await createTestContext();
    const instances = await appsOnRedis(ctx, REDIS_URL);
    closeShared = instances.close;
    [a, b] = instances.apps as [FastifyInstance, FastifyInstance];
    bUrl = await listen(b);
    owner = await createUser(ctx.app, { loginId: 'cache-owner', role: 2, name: '代表' });
    staff = await createUser(ctx.app, { loginId: 'cache-staff', role: 3, name: '受付' });
  });
  afterAll(async () => {
    await ctx.close();
    await closeShared();
  });

  const member = () =>
    createUser(ctx.app, { loginId: `cache-member-${(counter += 1)}`, role: 201, name: '会員 花子' });
  /** Asks B over HTTP, as a client's next request would reach it. */
  const post = (name: string, body: unknown) =>
    fetch(`${bUrl}/api/${name}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
  const accepted = async (ssid: string, uid: number) =>
    ((await (await post('auth', { ssid, uid })).json()) as { status: string }).status === 'accepted';
  /** B holds the session in its cache: it answered from the database once, and then from memory. */
  const cachedOnB = async (ssid: string, uid: number) => {
    expect(await accepted(ssid, uid)).toBe(true);
    expect(await accepted(ssid, uid)).toBe(true);
  };
  /**
   * The event crosses Redis to B: on a loaded machine B may take the next request before its subscriber has
   * read it, so B is given the pub/sub hop (a second at most), never the cache's 5 s.
   */
  const refusedOnB = async (ssid: string, uid: number) => {
    await expect.poll(() => accepted(ssid, uid), { timeout: 1000, interval: 10 }).toBe(false);
    expect((await post('config', { ssid })).status).toBe(401);
  };

  it('holds a session in memory: a row deleted behind its back is still believed on B, for a bounded time', async () => {
    // This is what the events below must undo; without the cache the deletion would show at once.
    const user = await member();
    const ssid = await login(a, user);
    await cachedOnB(ssid, user.uid);
    await ctx.database.db.delete(sessions).where(eq(sessions.id, sha256Hex(ssid)));
    expect(await accepted(ssid, user.uid)).toBe(true);
    expect(SESSION_CACHE_MS).toBeLessThanOrEqual(5_000);
  });

  it('logout on A: the next call on B is refused', async () => {
    const user = await member();
    const ssid = await login(a, user);
    await cachedOnB(ssid, user.uid);
    expect((await call(a, 'logout', { ssid })).status).toBe(200);
    await refusedOnB(ssid, user.uid);
  });

  it('a session revoked on A, and all the others ended on A: the next call on B is refused', async () => {
    const user = await member();
    const [keep, revoked, other] = [await login(a, user), await login(a, user), await login(a, user)];
    for (const ssid of [keep, revoked, other]) await cachedOnB(ssid, user.uid);
    const rows = (await call(a, 'sessions', { ssid: revoked })).body as { rows: SessionRow[] };
    const id = rows.rows.find((row) => row.current)!.id;

    expect((await call(a, 'sessions/revoke', { ssid: keep, id })).status).toBe(200);
    await refusedOnB(revoked, user.uid);
    expect(await accepted(other, user.uid)).toBe(true);

    expect((await call(a, 'sessions/revoke_others', { ssid: keep })).status).toBe(200);
    await refusedOnB(other, user.uid);
    expect(await accepted(keep, user.uid)).toBe(true);
  });

  it('a new password, staff ending the sessions, and deleting the account on A: refused on B at once', async () => {
    const ownerSsid = await login(a, owner);
    const staffSsid = await login(a, staff);

    const changed = await member();
    const before = await login(a, changed);
    await cachedOnB(before, changed.uid);
    const update = await call(a, 'updateuser', {
      ssid: ownerSsid,
      uid: changed.uid,
      id: changed.loginId,
      name: changed.name,
      pass: 'Another-pass9',
      rank: 0,
      role: 201,
      introducer: '',
    });
    expect(update.status).toBe(200);
    await refusedOnB(before, changed.uid);

    const lost = await member();
    const phone = await login(a, lost);
    await cachedOnB(phone, lost.uid);
    expect((await call(a, 'user/sessions/revoke', { ssid: staffSsid, user_id: lost.uid })).status).toBe(200);
    await refusedOnB(phone, lost.uid);

    const leaving = await member();
    const last = await login(a, leaving);
    await cachedOnB(last, leaving.uid);
    expect((await call(a, 'deluser', { ssid: staffSsid, uid: leaving.uid })).status).toBe(200);
    await refusedOnB(last, leaving.uid);
  });

  it('a changed record reaches the cached actor on B at once (the rank a session carries)', async () => {
    const ownerSsid = await login(a, owner);
    const man = await createUser(ctx.app, { loginId: 'cache-man', role: 101, name: '会員 太郎', rank: 1 });
    const ssid = await login(a, man);
    await cachedOnB(ssid, man.uid);
    const rankOn = async (app: FastifyInstance) =>
      ((await call(app, 'getuser', { ssid, uid: man.uid })).body as { rows: { rank: number }[] }).rows[0]!
        .rank;
    expect(await rankOn(b)).toBe(1);
    const update = await call(a, 'updateuser', {
      ssid: ownerSsid,
      uid: man.uid,
      id: man.loginId,
      name: man.name,
      rank: 4,
      role: 101,
      introducer: '',
    });
    expect(update.status).toBe(200);
    // B sees the new rank once the event has crossed Redis (as refusedOnB: a second at most, never 5 s).
    expect(await accepted(ssid, man.uid)).toBe(true);
    await expect
      .poll(async () => (await b.services.sessions.resolve(ssid))?.rank, { timeout: 1000, interval: 10 })
      .toBe(4);
  });

  it('drops what it holds when the shared subscription drops, so events missed meanwhile cannot matter', async () => {
    const user = await member();
    const ssid = await login(a, user);
    await cachedOnB(ssid, user.uid);

    // Both instances' subscriptions cut: whatever is published until they are back never arrives.
    await cutSubscriptions(REDIS_URL);
    // A logout whose event was lost: the row goes without any event reaching B.
    await ctx.database.db.delete(sessions).where(eq(sessions.id, sha256Hex(ssid)));
    await refusedOnB(ssid, user.uid);
  });
});

describe('session cache on one instance', () => {
  let ctx: TestContext;
  let now = Date.now();

  beforeAll(async () => {
    ctx = await createTestContext();
  });
  afterAll(() => ctx.close());

  it('believes a cached session for SESSION_CACHE_MS at most, and never past its expiry', async () => {
    const app = await ctx.buildApp({}, () => now);
    const user = await createUser(app, { loginId: 'cache-clock', role: 101, name: '時計 太郎' });
    const ssid = await login(app, user);
    expect((await app.services.sessions.resolve(ssid))?.uid).toBe(user.uid);
    await ctx.database.db.delete(sessions).where(eq(sessions.id, sha256Hex(ssid)));
    now += SESSION_CACHE_MS - 1;
    expect((await app.services.sessions.resolve(ssid))?.uid).toBe(user.uid);
    now += 1;
    expect(await app.services.sessions.resolve(ssid)).toBeNull();
  });
});

describe('session cache turned off', () => {
  it('reads every session from the database with SESSION_CACHE_MS=0', async () => {
    const ctx = await createTestContext({ env: { SESSION_CACHE_MS: '0' } });
    try {
      const user = await createUser(ctx.app, { loginId: 'cache-off', role: 101, name: '毎回 太郎' });
      const ssid = await login(ctx.app, user);
      expect((await ctx.app.services.sessions.resolve(ssid))?.uid).toBe(user.uid);
      await ctx.database.db.delete(sessions).where(eq(sessions.id, sha256Hex(ssid)));
      expect(await ctx.app.services.sessions.resolve(ssid)).toBeNull();
    } finally {
      await ctx.close();
    }
  });
});

describe('SessionCache', () => {
  const actor = { uid: 7, loginId: 'x', role: 101, rank: 1, name: 'x', image: null, sessionId: 'h' };

  it('does not store a read that began before an invalidation, nor anything while untrusted', () => {
    const cache = new SessionCache();
    const mark = cache.mark();
    cache.hear({ event: 'session.ended', uid: 7, sessionId: 'h' });
    cache.put('h', actor, 0, mark);
    expect(cache.get('h', 0)).toBeNull();

    cache.setTrusted(false);
    cache.put('h', actor, 0, cache.mark());
    expect(cache.get('h', 0)).toBeNull();
    cache.setTrusted(true);
    cache.put('h', actor, 0, cache.mark());
    expect(cache.get('h', 0)).toEqual(actor);
    cache.hear({ event: 'user.changed', uid: 7 });
    expect(cache.get('h', 0)).toBeNull();
  });
});
