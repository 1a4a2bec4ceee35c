import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { createLogger } from './logger.js';
import { call, createTestContext, createUser, login, type TestContext } from './test/app.js';
import { closeAll, listen, TestSocket } from './test/socket.js';
import { deskOf, newClientId } from './test/talk.js';

/*
 * The logs (product.md §10.4): JSON lines with a request id, and never a password, a session id, a push key
 * or a message's text, even at `trace`, the most talkative level.
 */

const lines: string[] = [];
const sink = { write: (line: string) => void lines.push(line) };
let ctx: TestContext;
let app: FastifyInstance;

beforeAll(async () => {
  ctx = await createTestContext();
  app = await ctx.buildApp({}, undefined, { logger: createLogger('trace', sink) });
});
afterAll(() => ctx.close());

const parsed = () => lines.map((line) => JSON.parse(line) as Record<string, unknown>);

describe('logs', () => {
  it('hold no password, session id, push key or message text through login, send and subscribe', async () => {
    const password = `Pw.${randomBytes(6).toString('hex')}`;
    const user = await createUser(app, { loginId: 'log-man', role: 101, name: '山田 太郎', password });
    await call(app, 'login', { id: 'log-man', password: 'Wrong.pass-99' });
    const ssid = await login(app, user);
    const desk = await deskOf(app, ssid);

    const text = `秘密のメッセージ ${randomBytes(6).toString('hex')}`;
    const socket = await TestSocket.session(await listen(app), ssid);
    const clientId = newClientId();
    socket.send({
      type: 'text',
      conversation_id: desk,
      conversation_type: null,
      message: text,
      image: [],
      reply: null,
      announce: false,
      client_id: clientId,
    });
    await socket.take((frame) => frame.type === 'message' && frame.client_id === clientId);
    await closeAll([socket]);

    const endpointToken = randomBytes(24).toString('base64url');
    const p256dh = `B${randomBytes(64).toString('base64url')}`.slice(0, 87);
    const auth = randomBytes(16).toString('base64url');
    const subscribed = await call(app, 'subscript', {
      ssid,
      subscript: {
        endpoint: `https://fcm.googleapis.com/fcm/send/${endpointToken}`,
        expirationTime: null,
        keys: { p256dh, auth },
      },
    });
    expect(subscribed.status).toBe(200);
    await call(app, 'logout', { ssid });

    const all = lines.join('\n');
    expect(lines.length).toBeGreaterThan(5);
    for (const secret of [password, 'Wrong.pass-99', ssid, text, endpointToken, p256dh, auth]) {
      expect(all, secret).not.toContain(secret);
    }
    // Every request line carries the request's id.
    const requests = parsed().filter((line) => line.msg === 'request');
    expect(requests.length).toBeGreaterThanOrEqual(4);
    for (const line of requests) expect(line.reqId).toEqual(expect.any(String));
  });

  it('takes the request id from X-Request-Id (nginx) and answers it back', async () => {
    const id = 'f3a9c1d2e4b5a6978877665544332211';
    const reply = await app.inject({ method: 'GET', url: '/healthz?x=1', headers: { 'x-request-id': id } });
    expect(reply.headers['x-request-id']).toBe(id);
    const own = await app.inject({ method: 'GET', url: '/healthz', headers: { 'x-request-id': 'bad id\n' } });
    expect(own.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    await app.inject({ method: 'POST', url: '/api/logout', headers: { 'x-request-id': id }, payload: {} });
    const line = parsed().find((each) => each.msg === 'request' && each.reqId === id && each.status === 401);
    expect(line).toMatchObject({ method: 'POST', route: '/api/logout', path: '/api/logout' });
  });

  it('leaves out what a failed query or push carries with an error', () => {
    const out: string[] = [];
    const log = createLogger('error', { write: (line: string) => void out.push(line) });
    const failed = Object.assign(
      new Error('Failed query: insert into messages values ($1)\nparams: 秘密の本文,hash-of-password'),
      { params: ['秘密の本文'], endpoint: 'https://fcm.googleapis.com/fcm/send/secret-token' },
    );
    log.error({ err: new Error('wrapped', { cause: failed }) }, 'unexpected error');
    log.error({ err: failed, ssid: 'session-id', user: { password: 'pw', token: 't0ken' } }, 'failed');
    const text = out.join('\n');
    for (const secret of ['秘密の本文', 'hash-of-password', 'secret-token', 'session-id', '"pw"', 't0ken']) {
      expect(text, secret).not.toContain(secret);
    }
    expect(text).toContain('Failed query: insert into messages');
  });
});
