import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { createTestContext, type TestContext } from '../test/app.js';

/*
 * The security headers of every reply (product.md §11.5), pinned as they were written by hand before
 * @fastify/helmet sent them: each header and its exact value, on successes, errors and 404s, with HSTS only
 * when PUBLIC_ORIGIN is https.
 */

const csp = (socket: string) =>
  [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data: blob:",
    `connect-src 'self' ${socket}`,
    "frame-src 'none'",
    "worker-src 'self'",
    "manifest-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');

const common = {
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'strict-origin-when-cross-origin',
  'x-frame-options': 'DENY',
  'permissions-policy': 'microphone=(self), camera=(), geolocation=()',
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-resource-policy': 'same-origin',
};

const requests = [
  { method: 'GET', url: '/healthz' },
  { method: 'GET', url: '/robots.txt' },
  { method: 'GET', url: '/no-such-page.txt' },
  { method: 'POST', url: '/api/config', payload: {} },
  { method: 'POST', url: '/api/no-such-call', payload: {} },
  { method: 'POST', url: '/api/login', payload: '{not json', headers: { 'content-type': 'application/json' } },
] as const;

describe('security headers', () => {
  let ctx: TestContext;
  let secure: FastifyInstance;

  beforeAll(async () => {
    ctx = await createTestContext();
    secure = await ctx.buildApp({ PUBLIC_ORIGIN: 'https://enishi.example.jp' });
  });
  afterAll(() => ctx.close());

  it('are the same on every reply over http, without HSTS', async () => {
    for (const request of requests) {
      const response = await ctx.app.inject(request);
      expect(response.headers, `${request.method} ${request.url}`).toMatchObject({
        ...common,
        'content-security-policy': csp('ws://localhost:8080'),
      });
      expect(response.headers['strict-transport-security']).toBeUndefined();
      if (request.url.startsWith('/api/')) expect(response.headers['cache-control']).toBe('no-store');
    }
  });

  it('carry HSTS when PUBLIC_ORIGIN is https', async () => {
    for (const request of requests) {
      const response = await secure.inject(request);
      expect(response.headers, `${request.method} ${request.url}`).toMatchObject({
        ...common,
        'content-security-policy': csp('wss://enishi.example.jp'),
        'strict-transport-security': 'max-age=31536000; includeSubDomains',
      });
    }
  });

  it('leave nothing of the old set out and add only helmet’s harmless defaults', async () => {
    const response = await secure.inject({ method: 'GET', url: '/healthz' });
    const security = Object.keys(response.headers)
      .filter((name) => !['content-type', 'content-length', 'date', 'connection', 'keep-alive'].includes(name))
      .sort();
    expect(security).toEqual(
      [...Object.keys(common), 'content-security-policy', 'strict-transport-security', ...HELMET_EXTRAS].sort(),
    );
  });
});

/** Headers helmet adds by default that the hand-written code did not send. */
const HELMET_EXTRAS: string[] = [];
