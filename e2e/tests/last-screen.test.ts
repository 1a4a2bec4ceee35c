import { afterAll, beforeAll, expect, test } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { ja } from '@enishi/contract';
import { logInAs, uniqueTag } from '../lib/admin.js';
import { launchInstalledApp } from '../lib/installed-app.js';
import { recordSecrets } from '../lib/secrets.js';
import { inject } from '../lib/suite.js';
import { composer, sendComment, storedMessage } from '../lib/talk.js';
import { people } from '../lib/users.js';

// The last screen kept on the device (product.md §15.6): an installed member's app reopens on his home and his
// talk as they were last drawn, before any script has run, and forgets them at logout.
let context: BrowserContext;
beforeAll(async () => {
  context = await launchInstalledApp('last-screen', { timezoneId: 'Asia/Tokyo' });
});
afterAll(async () => {
  await context?.close();
});

/**
 * A man of this test's own (no other file writes in his talk), and more messages from the desk than his screen
 * holds, so that where his talk opens (its end) shows: made by staff through the API.
 */
async function manWithALongTalk(): Promise<{ id: string; password: string }> {
  const post = async (name: string, body: Record<string, unknown>) => {
    const reply = await fetch(`${inject('baseURL')}/api/${name}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    if (!reply.ok) throw new Error(`${name}: ${reply.status} ${await reply.text()}`);
    return (await reply.json()) as Record<string, unknown>;
  };
  const { session: ssid } = await post('login', { id: people.staff.id, password: people.staff.password });
  const man = { id: `kept${uniqueTag()}`, password: 'Kept-pass.1' };
  recordSecrets([{ field: 'password', value: man.password }]);
  const added = (await post('adduser', {
    ssid,
    id: man.id,
    name: '保存 一郎',
    pass: man.password,
    rank: 2,
    role: 101,
    introducer: '',
  })) as { rows: { uid: number }[] };
  for (let n = 1; n <= 12; n++)
    await post('messages/send', { ssid, users: [added.rows[0]!.uid], message: `ご案内 その${n}`, image: [] });
  return man;
}

/** Until the service worker serves the page (the app keeps screens only then): reloaded once it is ready. */
async function underTheWorker(page: Page): Promise<void> {
  await page.evaluate(() => navigator.serviceWorker.ready.then(() => undefined));
  await page.reload();
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null);
}

/** Until the app has kept the screen of `path` with `text` on it (the Cache Storage cache the worker serves). */
async function kept(page: Page, path: string, text: string): Promise<void> {
  const keptText = () =>
    page.evaluate(async (at) => {
      const kept = await caches.match(at, { cacheName: 'enishi-last-screen' });
      return (await kept?.text()) ?? '';
    }, path);
  await expect.poll(keptText, { timeout: 15_000 }).toContain(text);
}

/**
 * Opens `path` in a new page and returns what was on it before the app drew anything: the messages' texts once
 * the HTML had been read, before the app's first script ran (modules run after `interactive`); where the newest
 * one's bottom edge was (px from the top of the screen) once the styles had come, before the app's first
 * drawing (it waits for its screen's chunks), at DOMContentLoaded; whether the home menu was there.
 */
async function beforeAnyScript(path: string) {
  const page = await context.newPage();
  await page.addInitScript(() => {
    const seen: Record<string, unknown> = {};
    (window as unknown as { seen: typeof seen }).seen = seen;
    const messages = () => Array.from(document.querySelectorAll('article[data-message-id]'));
    document.addEventListener('readystatechange', () => {
      if (document.readyState !== 'interactive') return;
      seen.texts = messages().map((message) => message.textContent ?? '');
      seen.menu = document.querySelector('nav.home-menu a') !== null;
      seen.offlineNote = document.querySelector('.offline-notice:not([hidden])')?.textContent ?? null;
    });
    document.addEventListener('DOMContentLoaded', () => {
      seen.kept = document.querySelector('[data-kept-at-end]') !== null;
      seen.bottom = messages().at(-1)?.getBoundingClientRect().bottom ?? null;
    });
  });
  await page.goto(path);
  const parsed = (await page.evaluate(() => (window as unknown as { seen: unknown }).seen)) as {
    texts: string[];
    menu: boolean;
    offlineNote: string | null;
    kept: boolean;
    bottom: number | null;
  };
  return { page, parsed };
}

/** The bottom edge of the newest message now (px from the top of the screen). */
const newestBottom = (page: Page) =>
  page.evaluate(
    () =>
      Array.from(document.querySelectorAll('article[data-message-id]')).at(-1)?.getBoundingClientRect()
        .bottom,
  );

test("a man's talk and home reopen as he last saw them before any script runs; logout forgets both", async () => {
  const man = await manWithALongTalk();
  const page = await context.newPage();
  await logInAs(page, man);
  await underTheWorker(page);

  await page.goto('/talkrooms/staff');
  await page.waitForURL(/\/talk\/staff\/\d+$/);
  const talk = new URL(page.url()).pathname;
  const words = `今夜の予定を確認しました ${uniqueTag()}`;
  await sendComment(page, words);
  await kept(page, talk, words);
  await page.goto('/');
  await page.getByRole('navigation', { name: ja.home.menuLabel }).waitFor();
  await kept(page, '/', ja.home.menuLabel);

  // Before any script has run, the talk is there at its end (his newest message in view)...
  const { page: reopened, parsed } = await beforeAnyScript(talk);
  expect(parsed.texts.join(' ')).toContain(words);
  expect(parsed.kept).toBe(true);
  expect(parsed.bottom).toBeGreaterThan(0);
  expect(parsed.bottom).toBeLessThanOrEqual(reopened.viewportSize()!.height);
  // ...and the app then draws the same talk over it: the newest message stays where it was.
  await composer(reopened).waitFor();
  await storedMessage(reopened, words).waitFor();
  await expect.poll(() => newestBottom(reopened)).toBeCloseTo(parsed.bottom!, -1);
  await reopened.close();
  // So does his home, and offline both say so at once.
  const home = await beforeAnyScript('/');
  expect(home.parsed.menu).toBe(true);
  expect(home.parsed.offlineNote).toBeNull();
  await context.setOffline(true);
  for (const path of ['/', talk]) {
    const offline = await beforeAnyScript(path);
    expect(offline.parsed.offlineNote).toBe(ja.app.offline);
    await offline.page.close();
  }
  await context.setOffline(false);

  // Logout: nothing of his stays for the next person to see.
  await home.page.getByRole('button', { name: ja.menu.logout }).click();
  await home.page.getByRole('alertdialog').getByRole('button', { name: ja.app.yes }).click();
  await home.page.waitForURL('**/login');
  await expect
    .poll(() => home.page.evaluate(async () => (await caches.keys()).includes('enishi-last-screen')))
    .toBe(false);
  const after = await beforeAnyScript(talk);
  expect(after.parsed.texts).toEqual([]);
});

test("a member logging in where another's screens are still kept never gets them", async () => {
  const first = await manWithALongTalk();
  const page = await context.newPage();
  await logInAs(page, first);
  await underTheWorker(page);
  await page.goto('/talkrooms/staff');
  await page.waitForURL(/\/talk\/staff\/\d+$/);
  const talk = new URL(page.url()).pathname;
  await kept(page, talk, 'ご案内 その12');

  // His session gone from the device without a logout (its storage cleared), his screens still kept...
  await page.evaluate(() => localStorage.clear());
  // ...the next member to log in here does not open on them.
  await logInAs(page, await manWithALongTalk());
  const keptNow = await page.evaluate(async (at) => {
    const cache = await caches.open('enishi-last-screen');
    return (await cache.match(at)) !== undefined;
  }, talk);
  expect(keptNow).toBe(false);
  const opened = await beforeAnyScript(talk);
  expect(opened.parsed.texts).toEqual([]);
  await opened.page.close();
  await page.close();
});
