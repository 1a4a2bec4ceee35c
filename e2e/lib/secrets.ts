import { appendFileSync, existsSync, readFileSync } from 'node:fs';
import type { BrowserContext, Request, Response } from 'playwright-core';
import { inject } from './suite.js';

/*
 * What the server's log must never hold (product.md §10.4): every password, session id, push key and
 * message text the browser suite sends. Each browser context is watched as it is made: its API bodies, the
 * login replies and the chat socket's frames; what is found goes to one file for the whole run, which the
 * global teardown compares with the server's log (global-setup.ts).
 */

/** Body fields that carry a secret, wherever they appear: API calls and socket frames alike. */
const SECRET_FIELDS = new Set([
  'password',
  'pass',
  'new_pass',
  'old_pass',
  'current_password',
  'new_password',
  'ssid',
  'session',
  'token',
  'endpoint',
  'p256dh',
  'auth',
  'message',
]);
/** Shorter values could turn up in a log by chance (a number, a word); none of the suite's secrets is. */
const MIN_LENGTH = 6;

export interface Secret {
  field: string;
  value: string;
}

function secretsFile(): string {
  return inject('secretsFile');
}

/**
 * Adds values to the run's list (appends: the test files run one after another, each in its own worker).
 * Outside Vitest (the benches drive the same rigs) no teardown reads the list, so nothing is kept.
 */
export function recordSecrets(secrets: Secret[]): void {
  if (!process.env.VITEST) return;
  const kept = secrets.filter((secret) => secret.value.length >= MIN_LENGTH);
  if (kept.length === 0) return;
  appendFileSync(secretsFile(), kept.map((secret) => `${JSON.stringify(secret)}\n`).join(''));
}

/** Every string under a secret field of a JSON value, at any depth. */
export function secretsIn(value: unknown, field = ''): Secret[] {
  if (typeof value === 'string') return SECRET_FIELDS.has(field) ? [{ field, value }] : [];
  if (Array.isArray(value)) return value.flatMap((item) => secretsIn(item, field));
  if (value && typeof value === 'object') {
    return Object.entries(value).flatMap(([key, item]) => secretsIn(item, key));
  }
  return [];
}

function parse(text: string | null): unknown {
  if (!text) return null;
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

/** Watches one context: its API requests, its login replies and its socket frames. */
export function watchSecrets(context: BrowserContext): void {
  context.on('request', (request: Request) => {
    if (request.method() === 'POST' && new URL(request.url()).pathname.startsWith('/api/')) {
      recordSecrets(secretsIn(parse(request.postData())));
    }
  });
  context.on('response', (response: Response) => {
    if (!new URL(response.url()).pathname.startsWith('/api/login')) return;
    response
      .json()
      .then((body: unknown) => recordSecrets(secretsIn(body)))
      .catch(() => undefined); // the page went away first, or no JSON: nothing was handed out
  });
  context.on('page', (page) => {
    page.on('websocket', (socket) => {
      socket.on('framesent', ({ payload }) => {
        if (typeof payload === 'string') recordSecrets(secretsIn(parse(payload)));
      });
    });
  });
}

/** The run's list so far. */
export function readSecrets(file: string): Secret[] {
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as Secret);
}

/** The secrets found in the log text, each once, with the number of the first line holding it. */
export function leaksIn(log: string, secrets: Secret[]): { field: string; line: number }[] {
  const lines = log.split('\n');
  const seen = new Set<string>();
  const leaks: { field: string; line: number }[] = [];
  for (const secret of secrets) {
    if (seen.has(secret.value)) continue;
    seen.add(secret.value);
    const index = lines.findIndex((line) => line.includes(secret.value));
    if (index >= 0) leaks.push({ field: secret.field, line: index + 1 });
  }
  return leaks;
}
