import { ClubConfigReply } from '@enishi/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config.js';
import { call, createTestContext, createUser, login, type TestContext } from '../test/app.js';

describe('/api/config', () => {
  let ctx: TestContext;
  let ssid: string;

  beforeAll(async () => {
    ctx = await createTestContext();
    ssid = await login(ctx.app, await createUser(ctx.app, { loginId: 'cfg-man', role: 101, rank: 1 }));
  });
  afterAll(() => ctx.close());

  it('gives no member-site links and the shipped course images by default', async () => {
    const reply = await call(ctx.app, 'config', { ssid });
    expect(ClubConfigReply.parse(reply.body)).toEqual({
      memberSiteLinks: { deposit: null, settings: null, points: null, payment: null, purchase: null },
      courseImages: [1, 2, 3, 4, 5, 6].map((n) => `/course/course-${n}.webp`),
    });
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
    expect(String(reply.headers['content-security-policy'])).toContain(
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
  ])('refuses a bad %s at start, naming it', (name, value) => {
    expect(() => loadConfig({ [name]: value })).toThrow(new RegExp(`Invalid environment variable ${name}`));
  });
});
