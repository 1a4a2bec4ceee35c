import { ClubConfigReply } from '@enishi/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../logger.js';
import { call, createTestContext, createUser, login, type TestContext } from '../test/app.js';
import { listen, TEST_ORIGIN, TestSocket } from '../test/socket.js';

/*
 * An app opened at another address than PUBLIC_ORIGIN (product.md §15.1): the socket is refused as the
 * contract says (403 before upgrading), the log names the refused and the expected origin once a minute,
 * and /api/config tells the app the address to open instead.
 */

const lines: string[] = [];
const sink = { write: (line: string) => void lines.push(line) };
let now = Date.parse('2026-11-29T10:00:00Z');
let ctx: TestContext;
let base: string;

beforeAll(async () => {
  ctx = await createTestContext();
  const app = await ctx.buildApp({}, () => now, { logger: createLogger('info', sink) });
  base = await listen(app);
});
afterAll(() => ctx.close());

const refusals = () =>
  lines
    .map((line) => JSON.parse(line) as Record<string, unknown>)
    .filter((line) => String(line.msg).startsWith('chat socket refused'));

describe('a socket from another origin', () => {
  it('is refused each time, and logged with both origins once a minute', async () => {
    for (let i = 0; i < 3; i++) {
      await expect(TestSocket.connect(base, 'http://127.0.0.1:8080')).rejects.toThrow(/403/);
    }
    expect(refusals()).toEqual([
      expect.objectContaining({ level: 40, origin: 'http://127.0.0.1:8080', expected: TEST_ORIGIN }),
    ]);
    now += 61_000;
    await expect(TestSocket.connect(base, 'http://enishi.example')).rejects.toThrow(/403/);
    expect(refusals().map((line) => line.origin)).toEqual(['http://127.0.0.1:8080', 'http://enishi.example']);
  });

  it('leaves the app the address to open: /api/config carries PUBLIC_ORIGIN', async () => {
    const man = await createUser(ctx.app, { loginId: 'origin-man', role: 101 });
    const reply = await call(ctx.app, 'config', { ssid: await login(ctx.app, man) });
    expect(ClubConfigReply.parse(reply.body).publicOrigin).toBe(TEST_ORIGIN);
  });
});
