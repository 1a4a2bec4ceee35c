import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliCompressSync, brotliDecompressSync } from 'node:zlib';
import { ja } from '@enishi/contract';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BODY_LIMIT_BYTES } from './app.js';
import { call, callRaw, createTestContext, type TestContext } from './test/app.js';

/** The build's brotli copy of big-3c4d.js, marked so that a test can tell it from one made per request. */
const builtBrotli = brotliCompressSync('console.log("縁");\n'.repeat(500) + '// built\n');

describe('the HTTP server', () => {
  let ctx: TestContext;
  let webDist: string;
  let withWeb: FastifyInstance;

  beforeAll(async () => {
    ctx = await createTestContext();
    webDist = await mkdtemp(path.join(tmpdir(), 'enishi-web-'));
    await mkdir(path.join(webDist, 'assets'));
    await writeFile(
      path.join(webDist, 'index.html'),
      '<!doctype html><title>縁</title><script type="module" src="/assets/app-1a2b.js"></script>',
    );
    await writeFile(path.join(webDist, 'assets', 'app-1a2b.js'), 'console.log(1)');
    await writeFile(path.join(webDist, 'enter.html'), '<!doctype html><title>縁</title><h1>ようこそ</h1>');
    await mkdir(path.join(webDist, 'intro'));
    await writeFile(
      path.join(webDist, 'intro', 'male.html'),
      '<!doctype html><title>縁</title><h1>男性の方へ</h1>',
    );
    await mkdir(path.join(webDist, 'shells'));
    await writeFile(
      path.join(webDist, 'shells', 'talk.html'),
      '<!doctype html><title>縁</title><script type="module" src="/assets/app-1a2b.js"></script>' +
        '<link rel="modulepreload" href="/assets/talk-screen-5e6f.js">',
    );
    await mkdir(path.join(webDist, 'shells', 'talk'));
    await writeFile(
      path.join(webDist, 'shells', 'talk', 'staff.html'),
      '<!doctype html><title>縁</title><script type="module" src="/assets/app-1a2b.js"></script>' +
        '<link rel="modulepreload" href="/assets/talk-screen-5e6f.js">' +
        '<link rel="modulepreload" href="/assets/auto-reply-7a8b.js">',
    );
    await writeFile(path.join(webDist, 'assets', 'big-3c4d.js'), 'console.log("縁");\n'.repeat(500));
    // As the web build leaves a script: its brotli copy beside it (web/scripts/precompress.ts).
    await writeFile(path.join(webDist, 'assets', 'big-3c4d.js.br'), builtBrotli);
    await writeFile(path.join(webDist, 'sw.js'), 'self.addEventListener("fetch", () => {})');
    await writeFile(path.join(webDist, 'manifest.webmanifest'), '{"name":"縁"}');
    await writeFile(path.join(webDist, '.env'), 'SECRET=1');
    await writeFile(path.join(webDist, 'assets', 'app-1a2b.js.map'), '{"sourcesContent":["SECRET"]}');
    withWeb = await ctx.buildApp({ WEB_DIST: webDist, PUBLIC_ORIGIN: 'https://enishi.example.jp' });
  });
  afterAll(async () => {
    await ctx.close();
    await rm(webDist, { recursive: true, force: true });
  });

  describe('security headers', () => {
    it('come with every page, file and API reply, errors included', async () => {
      const pages = [
        await ctx.app.inject({ method: 'GET', url: '/healthz' }),
        await withWeb.inject({ method: 'GET', url: '/' }),
        await withWeb.inject({ method: 'GET', url: '/assets/app-1a2b.js' }),
      ];
      for (const response of pages) {
        const csp = String(response.headers['content-security-policy']);
        expect(csp).toContain("default-src 'self'");
        expect(csp).toContain("script-src 'self';");
        expect(csp).toContain("object-src 'none'");
        expect(csp).toContain("frame-ancestors 'none'");
        expect(csp).not.toContain('unsafe-inline');
        expect(csp).not.toContain('unsafe-eval');
        expect(response.headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
        expect(response.headers['permissions-policy']).toBe('microphone=(self), camera=(), geolocation=()');
      }
      const api = [
        await ctx.app.inject({ method: 'POST', url: '/api/nothing-here', payload: {} }),
        await ctx.app.inject({ method: 'POST', url: '/api/login', payload: {} }),
      ];
      for (const response of api) {
        expect(response.headers['content-security-policy']).toBe("default-src 'none';frame-ancestors 'none'");
        expect(response.headers['cache-control']).toBe('no-store');
      }
      for (const response of [...pages, ...api]) {
        expect(response.headers['x-content-type-options']).toBe('nosniff');
        expect(response.headers['x-frame-options']).toBe('DENY');
      }
    });

    it('allow the chat socket of PUBLIC_ORIGIN, and HSTS only over https', async () => {
      const plain = await ctx.app.inject({ method: 'GET', url: '/healthz' });
      expect(plain.headers['content-security-policy']).toContain("connect-src 'self' ws://localhost:8080");
      expect(plain.headers['strict-transport-security']).toBeUndefined();

      const secure = await withWeb.inject({ method: 'GET', url: '/healthz' });
      expect(secure.headers['content-security-policy']).toContain(
        "connect-src 'self' wss://enishi.example.jp",
      );
      expect(secure.headers['strict-transport-security']).toMatch(/^max-age=\d+/);
    });
  });

  it('answers /healthz', async () => {
    const response = await ctx.app.inject({ method: 'GET', url: '/healthz' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ status: 'ok' });
  });

  it('lets robots see the landing and intro pages only', async () => {
    const response = await ctx.app.inject({ method: 'GET', url: '/robots.txt' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/plain/);
    const rules = response.body.split('\n');
    expect(rules[0]).toBe('User-agent: *');
    for (const allowed of ['/enter$', '/intro/male$', '/intro/female$', '/assets/']) {
      expect(rules).toContain(`Allow: ${allowed}`);
    }
    expect(rules).toContain('Disallow: /');
    expect(rules.filter((rule) => rule.startsWith('Allow:')).join()).not.toMatch(
      /login|talk|mypage|api|media/,
    );
  });

  describe('errors', () => {
    it('answers an unknown /api call with a JSON 404, whatever the method', async () => {
      for (const [method, url] of [
        ['POST', '/api/nothing-here'],
        ['GET', '/api/login'],
        ['GET', '/api/nothing-here'],
        ['DELETE', '/api/logout'],
      ] as const) {
        const response = await withWeb.inject({ method, url });
        expect(response.statusCode).toBe(404);
        expect(response.json()).toEqual({ error: ja.errors.notFound });
      }
    });

    it('refuses a body over the limit with 413', async () => {
      const reply = await callRaw(
        ctx.app,
        'login',
        JSON.stringify({ id: 'x', password: 'y'.repeat(BODY_LIMIT_BYTES) }),
        'application/json',
      );
      expect(reply).toMatchObject({ status: 413, body: { error: ja.errors.tooLarge } });
      const anonymous = await call(ctx.app, 'getuser', { ssid: 'x', pad: 'y'.repeat(BODY_LIMIT_BYTES) });
      expect(anonymous).toMatchObject({ status: 413, body: { error: ja.errors.tooLarge } });
    });

    it('never shows a stack trace or answers 5xx for odd input', async () => {
      const odd = [
        await callRaw(ctx.app, 'login', '{"id": "a", "password": "b"', 'application/json'),
        await callRaw(ctx.app, 'login', '\u0000\u0001', 'application/json'),
        await callRaw(ctx.app, 'getuser', '[]', 'application/json; charset=utf-8'),
        await callRaw(ctx.app, 'login', 'null', 'application/json'),
        await callRaw(ctx.app, 'entry', '"just a string"', 'application/json'),
        await callRaw(ctx.app, 'entry', '{}', 'multipart/form-data; boundary=x'),
        await callRaw(ctx.app, 'applications', ''),
        // PostgreSQL cannot store U+0000; it must be refused before it reaches the database.
        await call(ctx.app, 'login', { id: 'a\u0000b', password: 'x' }),
        await call(ctx.app, 'entry', {
          type: 'male',
          name: '\u0000',
          age: 30,
          email: 'a@b.jp',
          tel: '0901234567',
        }),
        await call(ctx.app, 'entry', { ['\u0000']: 1 }),
      ];
      for (const reply of odd) {
        expect(reply.status).toBeGreaterThanOrEqual(400);
        expect(reply.status).toBeLessThan(500);
        expect(Object.keys(reply.body as object)).toEqual(['error']);
        expect(JSON.stringify(reply.body)).not.toMatch(/at |Error|stack/);
      }
    });
  });

  describe('the web app', () => {
    it('serves index.html at / and for any app route, never cached', async () => {
      for (const url of ['/', '/talkrooms/men', '/men/edit?id=3', '/intro/female']) {
        const response = await withWeb.inject({ method: 'GET', url });
        expect(response.statusCode).toBe(200);
        expect(response.headers['content-type']).toMatch(/^text\/html/);
        expect(response.headers['cache-control']).toBe('no-cache');
        expect(response.body).toContain('<title>縁</title>');
      }
    });

    it('serves a prerendered public page for its path, with or without a trailing slash', async () => {
      for (const [url, words] of [
        ['/enter', 'ようこそ'],
        ['/enter/', 'ようこそ'],
        ['/intro/male', '男性の方へ'],
        ['/intro/male/?from=ad', '男性の方へ'],
      ]) {
        const response = await withWeb.inject({ method: 'GET', url: url! });
        expect(response.statusCode).toBe(200);
        expect(response.headers['content-type']).toMatch(/^text\/html/);
        expect(response.headers['cache-control']).toBe('no-cache');
        expect(response.body).toContain(words);
      }
      // A page the build did not prerender is the app's index.html.
      const other = await withWeb.inject({ method: 'GET', url: '/intro/female' });
      expect(other.body).not.toContain('<h1>');
      expect(other.body).toContain('/assets/app-1a2b.js');
    });

    it("serves a member shell for every path under its segment, with that screen's chunks linked", async () => {
      for (const url of ['/talk/12', '/talk/staff/3', '/talk/12?m=40', '/talk/12/', '/talk/staff']) {
        const response = await withWeb.inject({ method: 'GET', url });
        expect(response.statusCode).toBe(200);
        expect(response.headers['cache-control']).toBe('no-cache');
        expect(response.body).toContain('/assets/talk-screen-5e6f.js');
        // The longest shell answers: a member's talk with the desk has its own.
        expect(response.body.includes('auto-reply'), url).toBe(url.startsWith('/talk/staff/'));
      }
      // The segment itself, a longer name and other routes are index.html.
      for (const url of [
        '/talk',
        '/talkrooms/staff',
        '/men/edit?id=3',
        '/shells/talk',
        '/shells/talk/staff/1',
      ]) {
        const response = await withWeb.inject({ method: 'GET', url });
        expect(response.statusCode).toBe(200);
        expect(response.body).toContain('/assets/app-1a2b.js');
        expect(response.body).not.toContain('talk-screen');
      }
    });

    it('caches hashed assets for a year and revalidates the service worker and manifest', async () => {
      const asset = await withWeb.inject({ method: 'GET', url: '/assets/app-1a2b.js' });
      expect(asset.statusCode).toBe(200);
      expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      for (const url of ['/sw.js', '/manifest.webmanifest']) {
        const response = await withWeb.inject({ method: 'GET', url });
        expect(response.statusCode).toBe(200);
        expect(response.headers['cache-control']).toBe('no-cache');
      }
    });

    it('answers 404 for a missing file instead of HTML, and hides dotfiles and source maps', async () => {
      const urls = ['/assets/gone-9f9f.js', '/favicon.ico', '/.env', '/ws/chat', '/assets/app-1a2b.js.map'];
      for (const url of urls) {
        const response = await withWeb.inject({ method: 'GET', url });
        expect(response.statusCode).toBe(404);
        expect(response.body).not.toContain('SECRET');
      }
    });

    it('compresses what is worth compressing', async () => {
      const response = await withWeb.inject({
        method: 'GET',
        url: '/assets/big-3c4d.js',
        headers: { 'accept-encoding': 'gzip' },
      });
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-encoding']).toBe('gzip');
      expect(response.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    });

    it("sends the build's brotli copy of a script as it is, to a browser that takes brotli", async () => {
      const response = await withWeb.inject({
        method: 'GET',
        url: '/assets/big-3c4d.js',
        headers: { 'accept-encoding': 'gzip, deflate, br, zstd' },
      });
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-encoding']).toBe('br');
      expect(response.headers['content-type']).toMatch(/^application\/javascript/);
      expect(response.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(response.headers.vary).toMatch(/accept-encoding/i);
      expect(response.rawPayload.equals(builtBrotli)).toBe(true);
      expect(brotliDecompressSync(response.rawPayload).toString()).toMatch(/^console\.log\("縁"\);/);
    });

    it('shows a placeholder page when the web app is not built', async () => {
      const response = await ctx.app.inject({ method: 'GET', url: '/talk/12' });
      expect(response.statusCode).toBe(404);
      expect(response.headers['content-type']).toMatch(/^text\/html/);
      expect(response.body).toContain(ja.app.placeholder);
    });
  });
});
