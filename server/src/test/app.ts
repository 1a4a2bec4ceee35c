import { mkdtempSync, rmSync } from 'node:fs';
import path from 'node:path';
import { tmpdir } from 'node:os';
import type { FastifyInstance } from 'fastify';
import { CALLS, isCallName } from '@enishi/contract';
import { buildApp, type AppDeps } from '../app.js';
import { loadConfig, type Config } from '../config.js';
import type { DatabaseHandle } from '../db/client.js';
import type { Clock } from '../lib/clock.js';
import { openTestDatabase, type Engine } from './database.js';

/** A configuration for tests: silent logs, no built web app, and rate limits out of the way unless asked. */
export function testConfig(env: Record<string, string> = {}): Config {
  return loadConfig({
    LOG_LEVEL: 'silent',
    WEB_DIST: path.join(tmpdir(), 'enishi-test-no-web-dist'),
    LOGIN_ATTEMPTS_PER_ADDRESS: '100000',
    LOGIN_FAILURES_PER_ACCOUNT: '100000',
    LOGIN_FAILURES_PER_ACCOUNT_ADDRESS: '100000',
    ENTRIES_PER_ADDRESS: '100000',
    CHAT_MESSAGES_PER_SECOND: '100000',
    CHAT_MESSAGE_BURST: '100000',
    CHAT_IMAGES_PER_MINUTE: '100000',
    CHAT_IMAGE_BURST: '100000',
    ...env,
  });
}

export type ExtraDeps = Omit<AppDeps, 'database' | 'clock'>;

export interface TestContext {
  app: FastifyInstance;
  database: DatabaseHandle;
  /** The context's DATA_DIR (stored media), removed on close. */
  dataDir: string;
  /** Another app on the same database, e.g. with tight rate limits or a moved clock. */
  buildApp(env?: Record<string, string>, clock?: Clock, deps?: ExtraDeps): Promise<FastifyInstance>;
  close(): Promise<void>;
}

export async function createTestContext(
  options: { engine?: Engine; env?: Record<string, string>; deps?: ExtraDeps } = {},
) {
  const database = await openTestDatabase(options.engine);
  const dataDir = mkdtempSync(path.join(tmpdir(), 'enishi-data-'));
  const apps: FastifyInstance[] = [];
  const build = async (env: Record<string, string> = {}, clock?: Clock, deps: ExtraDeps = {}) => {
    const config = testConfig({ DATA_DIR: dataDir, ...options.env, ...env });
    const app = await buildApp(config, { ...options.deps, ...deps, database, clock });
    apps.push(app);
    return app;
  };
  const app = await build();
  const context: TestContext = {
    app,
    database,
    dataDir,
    buildApp: build,
    close: async () => {
      for (const each of apps) await each.close();
      await database.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
  return context;
}

export interface Reply {
  status: number;
  headers: Record<string, string | string[] | number | undefined>;
  body: unknown;
}

/**
 * Fails the test when a 2xx reply of a known call does not fit the call's reply schema in the contract, so
 * the schemas the web app parses with are checked against what the server really sends.
 */
function checkReply(name: string, status: number, body: unknown): void {
  if (status < 200 || status > 299 || !isCallName(name)) return;
  const result = CALLS[name].reply.safeParse(body);
  if (!result.success) {
    throw new Error(`reply of ${name} does not fit its schema: ${JSON.stringify(result.error.issues)}`);
  }
}

/** POST /api/<name> with a JSON body, as the web app sends it; a 2xx reply is checked against its schema. */
export async function call(
  app: FastifyInstance,
  name: string,
  body: unknown,
  headers: Record<string, string> = {},
) {
  const response = await app.inject({
    method: 'POST',
    url: `/api/${name}`,
    headers: { 'content-type': 'application/json', ...headers },
    payload: JSON.stringify(body),
  });
  const json: unknown = response.json();
  checkReply(name, response.statusCode, json);
  return {
    status: response.statusCode,
    headers: response.headers,
    body: json,
  } satisfies Reply;
}

/** POST /api/<name> with a raw payload and content type, for malformed requests. */
export async function callRaw(app: FastifyInstance, name: string, payload: string, contentType?: string) {
  const response = await app.inject({
    method: 'POST',
    url: `/api/${name}`,
    headers: contentType ? { 'content-type': contentType } : {},
    payload,
  });
  return {
    status: response.statusCode,
    headers: response.headers,
    body: response.json() as unknown,
  } satisfies Reply;
}

export interface TestUser {
  uid: number;
  loginId: string;
  password: string;
  role: number;
  name: string;
}

/** Creates a user (Argon2 hashing costs tens of ms: create them once per file). */
export async function createUser(
  app: FastifyInstance,
  user: { loginId: string; role: number; name?: string; password?: string; rank?: number },
): Promise<TestUser> {
  const password = user.password ?? 'secret-pass1';
  const name = user.name ?? `${user.loginId}さん`;
  const created = await app.services.users.create({ ...user, password, name });
  if (!created) throw new Error(`login ID ${user.loginId} taken`);
  return { uid: created.id, loginId: user.loginId, password, role: user.role, name };
}

/** Logs in through the API and returns the session token. */
export async function login(app: FastifyInstance, user: TestUser): Promise<string> {
  const reply = await call(app, 'login', { id: user.loginId, password: user.password });
  if (reply.status !== 200) throw new Error(`login failed: ${JSON.stringify(reply.body)}`);
  return (reply.body as { session: string }).session;
}
