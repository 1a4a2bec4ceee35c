import { createHmac } from 'node:crypto';
import { ClubConfigReply } from '@enishi/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config.js';
import { call, createTestContext, createUser, login, type TestContext, type TestUser } from '../test/app.js';

describe('/api/config', () => {
  let ctx: TestContext;
  let ssid: string;
  let man: TestUser;

  beforeAll(async () => {
    ctx = await createTestContext();
    man = await createUser(ctx.app, { loginId: 'cfg-man', role: 101, rank: 1 });
    ssid = await login(ctx.app, man);
  });
  afterAll(() => ctx.close());

  it('gives no member-site links and the shipped course images by default', async () => {
    const reply = await call(ctx.app, 'config', { ssid });
    expect(ClubConfigReply.parse(reply.body)).toEqual({
      memberSiteLinks: { deposit: null, settings: null, points: null, payment: null, purchase: null },
      courseImages: [1, 2, 3, 4, 5, 6].map((n) => `/course/course-${n}.webp`),
      iceServers: [],
      memberSiteUrl: null,
      // Where the app is to be opened (PUBLIC_ORIGIN, its default here), named when a socket is refused.
      publicOrigin: 'http://localhost:8080',
    });
  });

  it('gives ICE_SERVERS, with TURN credentials per user that coturn use-auth-secret accepts', async () => {
    const secret = 'coturn-static-auth-secret';
    const stun = { urls: 'stun:stun.example.jp:3478' };
    const turn = { urls: ['turn:turn.example.jp:3478?transport=udp', 'turns:turn.example.jp:5349'] };
    const own = { urls: 'turn:other.example.jp', username: 'fixed', credential: 'pass' };
    const app = await ctx.buildApp({
      ICE_SERVERS: JSON.stringify([stun, turn, own]),
      TURN_SECRET: secret,
      TURN_TTL_SECONDS: '600',
    });
    const before = Math.floor(Date.now() / 1000);
    const { iceServers } = ClubConfigReply.parse((await call(app, 'config', { ssid })).body);
    expect(iceServers[0]).toEqual(stun);
    expect(iceServers[2]).toEqual(own);
    const { username, credential } = iceServers[1]!;
    const [expiry, uid] = username!.split(':').map(Number);
    expect(uid).toBe(man.uid);
    expect(expiry! - before).toBeGreaterThanOrEqual(600);
    expect(expiry! - before).toBeLessThanOrEqual(601);
    // What coturn computes from its static-auth-secret for this username.
    expect(credential).toBe(createHmac('sha1', secret).update(username!).digest('base64'));
    expect(iceServers[1]!.urls).toEqual(turn.urls);

    // Without the secret, the entries go out as configured.
    const plain = await ctx.buildApp({ ICE_SERVERS: JSON.stringify([stun, turn]) });
    expect(ClubConfigReply.parse((await call(plain, 'config', { ssid })).body).iceServers).toEqual([
      stun,
      turn,
    ]);
  });

  it('gives ICE servers and TURN credentials only to whoever may call: staff and men, never a woman', async () => {
    const turn = { urls: 'turn:turn.example.jp:3478' };
    const app = await ctx.buildApp({
      ICE_SERVERS: JSON.stringify([turn]),
      TURN_SECRET: 'turn-secret-for-the-test',
    });
    const woman = await createUser(ctx.app, { loginId: 'cfg-woman', role: 201 });
    const staff = await createUser(ctx.app, { loginId: 'cfg-staff', role: 3 });
    const iceOf = async (user: TestUser) =>
      ClubConfigReply.parse((await call(app, 'config', { ssid: await login(ctx.app, user) })).body)
        .iceServers;
    const womans = await call(app, 'config', { ssid: await login(ctx.app, woman) });
    expect(ClubConfigReply.parse(womans.body).iceServers).toEqual([]);
    expect(JSON.stringify(womans.body)).not.toMatch(/turn|credential/i);
    for (const user of [staff, man]) {
      const [server] = await iceOf(user);
      expect(server).toMatchObject({ urls: turn.urls, username: expect.stringMatching(`:${user.uid}$`) });
      expect(server!.credential).toEqual(expect.any(String));
    }
  });

  it('gives what MEMBER_SITE_LINKS and COURSE_IMAGES configure, and lets those images load', async () => {
    const app = await ctx.buildApp({
      MEMBER_SITE_LINKS: JSON.stringify({ deposit: 'https://members.example.jp/deposit' }),
      COURSE_IMAGES: JSON.stringify(['/course/a.webp', 'https://cdn.example.jp/b.png']),
    });
    const reply = await call(app, 'config', { ssid });
    expect(ClubConfigReply.parse(reply.body)).toMatchObject({
      memberSiteLinks: { deposit: 'https://members.example.jp/deposit', purchase: null },
      courseImages: ['/course/a.webp', 'https://cdn.example.jp/b.png'],
    });
    const page = await app.inject({ method: 'GET', url: '/healthz' });
    expect(String(page.headers['content-security-policy'])).toContain(
      "img-src 'self' data: blob: https://cdn.example.jp;",
    );
  });

  it('needs a session', async () => {
    expect((await call(ctx.app, 'config', {})).status).toBe(401);
  });

  it.each([
    ['MEMBER_SITE_LINKS', 'not json'],
    ['MEMBER_SITE_LINKS', '{"deposit": "javascript:alert(1)"}'],
    ['MEMBER_SITE_LINKS', '{"unknown": "https://x.example"}'],
    ['COURSE_IMAGES', '["http://insecure.example/a.png"]'],
    ['COURSE_IMAGES', '[]'],
    ['COURSE_IMAGES', '["//evil.example/a.png"]'],
    ['ICE_SERVERS', '{"urls": "stun:a.example"}'],
    ['ICE_SERVERS', '[{"urls": "https://a.example"}]'],
    ['ICE_SERVERS', '[{"urls": []}]'],
    ['ICE_SERVERS', '[{"urls": "stun:a.example", "extra": 1}]'],
    ['TURN_SECRET', 'short'],
  ])('refuses a bad %s at start, naming it', (name, value) => {
    expect(() => loadConfig({ [name]: value })).toThrow(new RegExp(`Invalid environment variable ${name}`));
  });
});
