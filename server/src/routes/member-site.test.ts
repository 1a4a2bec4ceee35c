import { ClubConfigReply } from '@enishi/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../config.js';
import { call, createTestContext, createUser, login, type TestContext } from '../test/app.js';

describe('SITE_KINDS and MEMBER_SITE_URL', () => {
  it('maps host names to site kinds, "*" for every other host, kind 2 by default', () => {
    expect(loadConfig({}).siteKinds).toEqual({ byHost: {}, fallback: 2 });
    expect(loadConfig({ SITE_KINDS: '{"ocean.example.jp": 5, "*": 4}' }).siteKinds).toEqual({
      byHost: { 'ocean.example.jp': 5 },
      fallback: 4,
    });
    for (const bad of ['{"a.example.jp": 6}', '{"A.example.jp": 1}', '[1]', 'ocean']) {
      expect(() => loadConfig({ SITE_KINDS: bad })).toThrow(ConfigError);
      expect(() => loadConfig({ SITE_KINDS: bad })).toThrow(/SITE_KINDS/);
    }
    expect(() => loadConfig({ MEMBER_SITE_URL: 'javascript:alert(1)' })).toThrow(/MEMBER_SITE_URL/);
  });

  describe('with a member site', () => {
    let ctx: TestContext;
    let plain: Awaited<ReturnType<TestContext['buildApp']>>;
    beforeAll(async () => {
      ctx = await createTestContext({ env: { MEMBER_SITE_URL: 'https://members.example.jp/login?x=1' } });
      plain = await ctx.buildApp({ MEMBER_SITE_URL: '' });
    });
    afterAll(() => ctx.close());

    it('lets that origin alone be framed, and no frame at all without one', async () => {
      const framed = await ctx.app.inject({ method: 'GET', url: '/healthz' });
      expect(framed.headers['content-security-policy']).toContain('frame-src https://members.example.jp;');
      const none = await plain.inject({ method: 'GET', url: '/healthz' });
      expect(none.headers['content-security-policy']).toContain("frame-src 'none'");
    });

    it('tells men the member site, and nobody else', async () => {
      const man = await createUser(ctx.app, { loginId: 'site-man', role: 101 });
      const woman = await createUser(ctx.app, { loginId: 'site-woman', role: 201 });
      const forMan = ClubConfigReply.parse(
        (await call(ctx.app, 'config', { ssid: await login(ctx.app, man) })).body,
      );
      expect(forMan.memberSiteUrl).toBe('https://members.example.jp/login?x=1');
      const forWoman = ClubConfigReply.parse(
        (await call(ctx.app, 'config', { ssid: await login(ctx.app, woman) })).body,
      );
      expect(forWoman.memberSiteUrl).toBeUndefined();
    });
  });
});
