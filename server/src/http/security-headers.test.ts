import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { createTestContext, type TestContext } from '../test/app.js';

/*
 * The security headers of every reply (product.md §11.5), pinned as they were written by hand before
 * @fastify/helmet sent them: each header and its exact value, on successes, errors and 404s, with HSTS only
 * when PUBLIC_ORIGIN is https. The policy is compared directive by directive: helmet joins them with `;`
 * where the old code wrote `; ` (the same policy to every browser).
 */

const directives = (policy: unknown) => String(policy).split(/;\s*/);

const csp = (socket: string) => [
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
];

const common = {
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'strict-origin-when-cross-origin',
  'x-frame-options': 'DENY',
  'permissions-policy': 'microphone=(self), camera=(), geolocation=()',
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-resource-policy': 'same-origin',
};

/** Headers helmet adds by default that the hand-written code did not send (each only closes a door more). */
const HELMET_EXTRAS = {
  'origin-agent-cluster': '?1',
  'x-dns-prefetch-control': 'off',
  'x-download-options': 'noopen',
  'x-permitted-cross-domain-policies': 'none',
  'x-xss-protection': '0',
};

const requests = [
  { method: 'GET', url: '/healthz' },
  { method: 'GET', url: '/robots.txt' },
  { method: 'GET', url: '/no-such-page.txt' },
  { method: 'POST', url: '/api/config', payload: {} },
  { method: 'POST', url: '/api/no-such-call', payload: {} },
  {
    method: 'POST',
    url: '/api/login',
    payload: '{not json',
    headers: { 'content-type': 'application/json' },
  },
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
        ...HELMET_EXTRAS,
      });
      expect(directives(response.headers['content-security-policy'])).toEqual(csp('ws://localhost:8080'));
      expect(response.headers['strict-transport-security']).toBeUndefined();
      if (request.url.startsWith('/api/')) expect(response.headers['cache-control']).toBe('no-store');
    }
  });

  it('carry HSTS when PUBLIC_ORIGIN is https', async () => {
    for (const request of requests) {
      const response = await secure.inject(request);
      expect(response.headers, `${request.method} ${request.url}`).toMatchObject({
        ...common,
        'strict-transport-security': 'max-age=31536000; includeSubDomains',
      });
      expect(directives(response.headers['content-security-policy'])).toEqual(csp('wss://enishi.example.jp'));
    }
  });

  it('leave nothing of the old set out and add only helmet’s harmless defaults', async () => {
    const response = await secure.inject({ method: 'GET', url: '/healthz' });
    const security = Object.keys(response.headers)
      .filter(
        // x-request-id: the log's request id (product.md §10.4), not a security header.
        (name) =>
          !['content-type', 'content-length', 'date', 'connection', 'keep-alive', 'x-request-id'].includes(
            name,
          ),
      )
      .sort();
    expect(security).toEqual(
      [
        ...Object.keys(common),
        'content-security-policy',
        'strict-transport-security',
        ...Object.keys(HELMET_EXTRAS),
      ].sort(),
    );
  });
});
