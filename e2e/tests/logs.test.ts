import { readFileSync } from 'node:fs';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { inject } from '../lib/suite.js';
import { launchBrowser, logIn, newPhone } from '../lib/browser.js';
import { leaksIn, readSecrets } from '../lib/secrets.js';
import { sendComment, timeline } from '../lib/talk.js';
import { people } from '../lib/users.js';

/*
 * The server's log (product.md §10.4), read as an operator would: JSON lines with a request id, and none of
 * what the browser sent in secret. The global teardown scans the whole run's log the same way once every
 * file has run; this file also checks, mid-run, that the watch sees what it must (a login's password and
 * session, a message's text) and that the log has none of it.
 */

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

test('a login and a message leave request lines with ids and none of their secrets', async () => {
  const context = await newPhone(browser);
  const page = await context.newPage();
  await logIn(page, 'man');
  await page.goto('/talkrooms/staff');
  await page.waitForURL(/\/talk\/staff\/\d+$/);
  await timeline(page).waitFor();
  const text = `ログ確認用のメッセージ ${Date.now().toString(36)}`;
  await sendComment(page, text);
  await context.close();

  const secrets = readSecrets(inject('secretsFile'));
  const values = secrets.map((secret) => secret.value);
  expect(values).toContain(people.man.password);
  expect(values).toContain(text);
  expect(secrets.some((secret) => secret.field === 'session')).toBe(true);

  const log = readFileSync(inject('serverLog'), 'utf8');
  const lines = log
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as Record<string, unknown>);
  const logins = lines.filter((line) => line.msg === 'request' && line.route === '/api/login');
  expect(logins.length).toBeGreaterThan(0);
  for (const line of lines.filter((each) => each.msg === 'request')) {
    expect(line.reqId).toEqual(expect.any(String));
  }
  expect(leaksIn(log, secrets)).toEqual([]);
});
