import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { createTestContext, type TestContext } from '../test/app.js';

/*
 * The security headers of every reply (product.md §11.1), each header and its exact value, on successes,
 * errors and 404s, with HSTS only when PUBLIC_ORIGIN is https. Pages and files carry the pages' set, pinned as
 * it was written by hand before helmet sent it; API replies carry the JSON set and nothing of the pages'. The
 * policy is compared directive by directive: helmet joins them with `;` where the old code wrote `; `.
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

const pages = [
  { method: 'GET', url: '/healthz' },
  { method: 'GET', url: '/robots.txt' },
  { method: 'GET', url: '/no-such-page.txt' },
] as const;

const apiCalls = [
  { method: 'POST', url: '/api/config', payload: {} },
  { method: 'POST', url: '/api/no-such-call', payload: {} },
  {
    method: 'POST',
    url: '/api/login',
    payload: '{not json',
    headers: { 'content-type': 'application/json' },
  },
] as const;

/** The API's whole set: what guards a JSON reply, a policy that allows nothing, no cache. */
const API = {
  'content-security-policy': "default-src 'none';frame-ancestors 'none'",
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'cross-origin-resource-policy': 'same-origin',
  'cache-control': 'no-store',
};

/** What every reply has besides its security headers (x-request-id: the log's id, product.md §10.4). */
const OTHER = ['content-type', 'content-length', 'date', 'connection', 'keep-alive', 'x-request-id'];
const securityHeaderNames = (headers: Record<string, unknown>) =>
  Object.keys(headers)
    .filter((name) => !OTHER.includes(name))
    .sort();

describe('security headers', () => {
  let ctx: TestContext;
  let secure: FastifyInstance;

  beforeAll(async () => {
    ctx = await createTestContext();
    secure = await ctx.buildApp({ PUBLIC_ORIGIN: 'https://enishi.example.jp' });
  });
  afterAll(() => ctx.close());

  it('are the pages’ set on every page and file over http, without HSTS', async () => {
    for (const request of pages) {
      const response = await ctx.app.inject(request);
      expect(response.headers, `${request.method} ${request.url}`).toMatchObject({
        ...common,
        ...HELMET_EXTRAS,
      });
      expect(directives(response.headers['content-security-policy'])).toEqual(csp('ws://localhost:8080'));
      expect(response.headers['strict-transport-security']).toBeUndefined();
    }
  });

  it('are the API’s set, and only that, on every API reply, errors included', async () => {
    for (const request of apiCalls) {
      const response = await ctx.app.inject(request);
      const name = `${request.method} ${request.url}`;
      expect(response.headers, name).toMatchObject(API);
      expect(securityHeaderNames(response.headers), name).toEqual(Object.keys(API).sort());
    }
  });

  it('carry HSTS when PUBLIC_ORIGIN is https', async () => {
    const hsts = { 'strict-transport-security': 'max-age=31536000; includeSubDomains' };
    for (const request of pages) {
      const response = await secure.inject(request);
      expect(response.headers, `${request.method} ${request.url}`).toMatchObject({ ...common, ...hsts });
      expect(directives(response.headers['content-security-policy'])).toEqual(csp('wss://enishi.example.jp'));
    }
    for (const request of apiCalls) {
      const response = await secure.inject(request);
      expect(response.headers, `${request.method} ${request.url}`).toMatchObject({ ...API, ...hsts });
    }
  });

  it('leave nothing of the old set out of pages and add only helmet’s harmless defaults', async () => {
    const response = await secure.inject({ method: 'GET', url: '/healthz' });
    expect(securityHeaderNames(response.headers)).toEqual(
      [
        ...Object.keys(common),
        'content-security-policy',
        'strict-transport-security',
        ...Object.keys(HELMET_EXTRAS),
      ].sort(),
    );
  });
});
