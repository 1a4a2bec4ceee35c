import { Worker } from 'node:worker_threads';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ja } from '@enishi/contract';
import { call, callRaw, createTestContext, createUser, login, type TestContext } from '../test/app.js';
import { ROLES } from '../test/content.js';
import { PRE_SESSION_BYTES } from './request-bodies.js';

const nested = (depth: number) => '['.repeat(depth) + ']'.repeat(depth);

/** A news body over the pre-session size, its ssid first or last as asked. */
function largeNews(ssid: string, ssidFirst: boolean): string {
  const fields = `"title":"t","body":"${'b'.repeat(PRE_SESSION_BYTES)}","type":1`;
  return ssidFirst ? `{"ssid":"${ssid}",${fields}}` : `{${fields},"ssid":"${ssid}"}`;
}

/** Clients sending 30 MiB of nested brackets without a session, one after another, until told to stop. */
const ATTACKERS = `
const { parentPort, workerData } = require('node:worker_threads');
const http = require('node:http');
const depth = 15 * 1024 * 1024;
const attack = Buffer.from('{"title":' + '['.repeat(depth) + ']'.repeat(depth) + '}');
let stop = false;
const statuses = [];
parentPort.on('message', () => { stop = true; });
const sendOne = () => new Promise((resolve) => {
  const req = http.request({
    host: '127.0.0.1', port: workerData.port, method: 'POST', path: '/api/news/add',
    headers: { 'content-type': 'application/json', 'content-length': attack.length },
  });
  req.on('response', (response) => {
    statuses.push(response.statusCode);
    response.resume().on('end', resolve).on('error', resolve);
  });
  req.on('error', resolve); // the server closed the connection without reading the rest
  req.end(attack);
});
const client = async () => { while (!stop) await sendOne(); };
parentPort.postMessage('ready');
Promise.all(Array.from({ length: workerData.clients }, client)).then(() => parentPort.postMessage(statuses));
`;

describe('bodies before a session', () => {
  let ctx: TestContext;
  let staff: string;

  beforeAll(async () => {
    ctx = await createTestContext();
    staff = await login(ctx.app, await createUser(ctx.app, { loginId: 'body-staff', role: ROLES.staff }));
  });
  afterAll(() => ctx.close());

  it('refuses deeply nested JSON as malformed, before any call sees it', async () => {
    for (const depth of [65, 16_000, 30_000]) {
      const reply = await callRaw(
        ctx.app,
        'login',
        `{"id":${nested(depth)},"password":"x"}`,
        'application/json',
      );
      expect(reply).toMatchObject({ status: 400, body: { error: ja.errors.malformedJson } });
    }
    const shallow = await call(ctx.app, 'login', { id: [[['a']]], password: 'x' });
    expect(shallow.status).toBe(400);
  });

  it('reads a large body only when it begins with a valid session', async () => {
    const first = await callRaw(ctx.app, 'news/add', largeNews(staff, true), 'application/json');
    // Past the session, the body is read and validated: the text is over the news body limit.
    expect(first.status).toBe(400);
    expect(first.body).not.toEqual({ error: ja.errors.unauthorized });

    for (const body of [largeNews(staff, false), largeNews('not-a-session', true)]) {
      const refused = await callRaw(ctx.app, 'news/add', body, 'application/json');
      expect(refused).toMatchObject({ status: 401, body: { error: ja.errors.unauthorized } });
    }
  });

  it('keeps /healthz quick while 8 clients send 30 MiB of nesting without a session', async () => {
    const address = await ctx.app.listen({ host: '127.0.0.1', port: 0 });
    const { port } = ctx.app.server.address() as AddressInfo;
    // The attackers run in a thread of their own, so only the server's work shows in the timings.
    const attackers = new Worker(ATTACKERS, { eval: true, workerData: { port, clients: 8 } });
    const next = () =>
      new Promise<unknown>((resolve, reject) => attackers.once('message', resolve).once('error', reject));
    await next(); // ready
    const attacking = next() as Promise<number[]>;

    const times: number[] = [];
    for (let i = 0; i < 200; i++) {
      const started = performance.now();
      const response = await fetch(`${address}/healthz`);
      await response.text();
      times.push(performance.now() - started);
      expect(response.status).toBe(200);
    }
    attackers.postMessage('stop');
    const statuses = await attacking;

    times.sort((a, b) => a - b);
    const p99 = times[Math.ceil(times.length * 0.99) - 1] ?? Infinity;
    expect(statuses.length).toBeGreaterThan(0);
    expect(statuses.every((status) => status === 401)).toBe(true);
    expect(p99).toBeLessThan(100);
  }, 60_000);
});
