import { randomUUID } from 'node:crypto';
import { LoginReply, NoticesReply, SECOND_STEP_LOCK_S, jaSecondStep } from '@enishi/contract';
import type { FastifyInstance } from 'fastify';
import { Redis } from 'ioredis';
import { generateSync } from 'otplib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTestContext, createUser, type TestContext, type TestUser } from '../test/app.js';
import { lockEnds, secondStepCounters } from './second-step-lock.js';

/*
 * Outcome 1 of issue 44 (product.md §11.7, decision 035): wrong second-step answers counted per account
 * across tickets, addresses and instances; the 6th answer, even a right one, is refused for 15 minutes.
 */

const STEP_MS = 30_000;
const LOCK_MS = SECOND_STEP_LOCK_S * 1000;

/** POST /api/<name> from a client address of the test's choosing. */
async function from(app: FastifyInstance, address: string, name: string, body: object) {
  const response = await app.inject({
    method: 'POST',
    url: `/api/${name}`,
    remoteAddress: address,
    headers: { 'content-type': 'application/json' },
    payload: JSON.stringify(body),
  });
  return { status: response.statusCode, body: response.json() as Record<string, unknown> };
}

describe('the second step counts wrong answers per account', () => {
  let ctx: TestContext;
  // Two instances sharing the counter: Redis when TEST_REDIS_URL is set (as CI), else one memory counter.
  let apps: FastifyInstance[];
  let redis: Redis | null = null;
  let now = Math.floor(Date.now() / STEP_MS) * STEP_MS + 1000;
  let accounts = 0;

  const codeAt = (secret: string, at = now) => generateSync({ secret, epoch: Math.floor(at / 1000) });
  const wrongCode = (secret: string) =>
    String((Number(codeAt(secret)) + 500_000) % 1_000_000).padStart(6, '0');
  /** A staff account with TOTP set up; the setup's own code spent, so the next step's code is fresh. */
  async function withTotp(): Promise<{ user: TestUser; secret: string; recovery: string[] }> {
    accounts += 1;
    const user = await createUser(apps[0]!, { loginId: `lock-${accounts}`, role: 3 });
    const ssid = LoginReply.parse(
      (await call(apps[0]!, 'login', { id: user.loginId, password: user.password })).body,
    ).session;
    const { secret } = (await call(apps[0]!, '2fa/totp/setup', { ssid })).body as { secret: string };
    const confirmed = await call(apps[0]!, '2fa/totp/confirm', { ssid, code: codeAt(secret) });
    expect(confirmed.status).toBe(200);
    now += STEP_MS;
    return { user, secret, recovery: (confirmed.body as { recovery_codes: string[] }).recovery_codes };
  }
  /** A fresh ticket for the account, from `address` on instance `index`. */
  async function ticket(user: TestUser, address: string, index = 0): Promise<string> {
    const reply = await from(apps[index]!, address, 'login', { id: user.loginId, password: user.password });
    expect(reply.status).toBe(200);
    return reply.body.ticket as string;
  }

  beforeAll(async () => {
    ctx = await createTestContext();
    const url = process.env.TEST_REDIS_URL;
    // A prefix of this run's own: other files and runs on the same Redis never share its counts. Each
    // instance has its own counter object, as two processes would.
    const prefix = `test:second-step:${randomUUID()}`;
    if (url) redis = new Redis(url);
    const shared = secondStepCounters();
    const counter = () => (redis ? secondStepCounters(redis, prefix) : shared);
    apps = [
      await ctx.buildApp({}, () => now, { secondStepCounters: counter() }),
      await ctx.buildApp({}, () => now, { secondStepCounters: counter() }),
    ];
  });
  afterAll(async () => {
    await ctx.close();
    redis?.disconnect();
  });

  it('refuses the 6th answer, even a right one, for 15 minutes after 5 wrong ones from different tickets, addresses and instances', async () => {
    const { user, secret } = await withTotp();
    for (let i = 0; i < 5; i += 1) {
      const address = `203.0.113.${i + 1}`;
      const wrong = await from(apps[i % 2]!, address, 'login/second', {
        ticket: await ticket(user, address, i % 2),
        code: wrongCode(secret),
      });
      expect(wrong).toMatchObject({ status: 401, body: { error: jaSecondStep.errors.codeWrong } });
    }
    const right = { ticket: await ticket(user, '198.51.100.7'), code: codeAt(secret) };
    expect(await from(apps[0]!, '198.51.100.7', 'login/second', right)).toMatchObject({
      status: 429,
      body: { error: jaSecondStep.errors.locked },
    });
    // Still refused just before the 15 minutes are up, on the other instance too.
    now += LOCK_MS - 1000;
    expect(
      await from(apps[1]!, '198.51.100.8', 'login/second', {
        ticket: await ticket(user, '198.51.100.8', 1),
        code: codeAt(secret),
      }),
    ).toMatchObject({ status: 429, body: { error: jaSecondStep.errors.locked } });

    // Then the right code logs in, and the person is told of the lock.
    now += 2000;
    const after = await from(apps[0]!, '198.51.100.7', 'login/second', {
      ticket: await ticket(user, '198.51.100.7'),
      code: codeAt(secret),
    });
    expect(after.status).toBe(200);
    const notices = NoticesReply.parse(
      (await call(apps[0]!, 'notices', { ssid: (after.body as { session: string }).session })).body,
    );
    expect(notices.rows.map((row) => row.kind)).toEqual(['second_step_locked', 'totp_added']);
  });

  it('counts wrong recovery codes with wrong codes, and a right answer does not count', async () => {
    const { user, secret, recovery } = await withTotp();
    const answers = [
      { code: wrongCode(secret) },
      { recovery_code: 'aaaa-bbbb-cccc' },
      { code: wrongCode(secret) },
      { recovery_code: 'dddd-eeee-ffff' },
    ];
    for (const answer of answers) {
      const reply = await from(apps[0]!, '203.0.113.50', 'login/second', {
        ticket: await ticket(user, '203.0.113.50'),
        ...answer,
      });
      expect(reply.status).toBe(401);
    }
    // The 5th answer is right: it logs in and does not count, so the 5th wrong one is the one that locks.
    const good = await from(apps[1]!, '203.0.113.51', 'login/second', {
      ticket: await ticket(user, '203.0.113.51', 1),
      recovery_code: recovery[0]!,
    });
    expect(good.status).toBe(200);
    const fifthWrong = await from(apps[0]!, '203.0.113.52', 'login/second', {
      ticket: await ticket(user, '203.0.113.52'),
      recovery_code: 'gggg-hhhh-jjjj',
    });
    expect(fifthWrong.status).toBe(401);
    const locked = await from(apps[0]!, '203.0.113.52', 'login/second', {
      ticket: await ticket(user, '203.0.113.52'),
      recovery_code: recovery[1]!,
    });
    expect(locked).toMatchObject({ status: 429, body: { error: jaSecondStep.errors.locked } });
  });

  it('lets no more than 5 of 12 wrong answers sent at once be checked', async () => {
    const { user, secret } = await withTotp();
    const tickets = await Promise.all(
      Array.from({ length: 12 }, (_, i) => ticket(user, `192.0.2.${i + 1}`, i % 2)),
    );
    const replies = await Promise.all(
      tickets.map((each, i) =>
        from(apps[i % 2]!, `192.0.2.${i + 1}`, 'login/second', { ticket: each, code: wrongCode(secret) }),
      ),
    );
    expect(replies.filter((reply) => reply.status === 401)).toHaveLength(5);
    expect(replies.filter((reply) => reply.status === 429)).toHaveLength(7);
  });

  it('makes each further lock of the day twice as long (the best guessing rate, decision 035)', () => {
    const at = (minutes: number) => new Date(minutes * 60_000);
    // Locks as soon as each one ends: 15, 30, 60 ... minutes.
    expect(lockEnds([at(0), at(15), at(45), at(105)]).map((end) => end / 60_000)).toEqual([15, 45, 105, 225]);
    // A lock of more than a day ago does not lengthen the next.
    expect(lockEnds([at(0), at(24 * 60 + 1)]).map((end) => end / 60_000)).toEqual([15, 24 * 60 + 16]);
  });
});
