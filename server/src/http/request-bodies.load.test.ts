import { Worker } from 'node:worker_threads';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../test/app.js';
import { healthzP99, underAttackBound } from '../test/healthz-timing.js';

/*
 * A load test: it measures how quickly the server answers while attacked, so it runs alone, after the other
 * suites (the `load` project in vitest.config.ts), where no other test file shares the two cores.
 */

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

describe('bodies before a session, under attack', () => {
  let ctx: TestContext;

  beforeAll(async () => {
    ctx = await createTestContext();
  });
  afterAll(() => ctx.close());

  it('keeps /healthz quick while 8 clients send 30 MiB of nesting without a session', async () => {
    const address = await ctx.app.listen({ host: '127.0.0.1', port: 0 });
    const { port } = ctx.app.server.address() as AddressInfo;
    const baseline = await healthzP99(address, 200);
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
    expect(p99).toBeLessThan(underAttackBound(baseline));
  }, 60_000);
});
