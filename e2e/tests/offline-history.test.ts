import { afterAll, beforeAll, expect, test } from 'vitest';
import { type BrowserContext, type Page } from 'playwright-core';
import { ja, jaMember } from '@enishi/contract';
import { logIn } from '../lib/browser.js';
import { launchInstalledApp } from '../lib/installed-app.js';
import { photograph } from '../lib/photograph.js';

// History offline (product.md §15.6): a talk opened before shows its newest messages without a network.
let context: BrowserContext;
beforeAll(async () => {
  // A persistent profile with service workers allowed: the installed app, whose shell opens offline.
  context = await launchInstalledApp('history', { timezoneId: 'Asia/Tokyo' });
});
afterAll(async () => {
  await context?.close();
});

const timeline = (page: Page) => page.getByRole('log', { name: ja.talk.timeline });

/** The texts kept on the device for a talk (IndexedDB enishi-history), as the app reads them offline. */
function keptTexts(page: Page, conversationId: number): Promise<string[]> {
  return page.evaluate(async (id) => {
    // Opening a database that is not there would make an empty one, in the app's way: look first.
    if (!(await indexedDB.databases()).some((db) => db.name === 'enishi-history')) return [];
    return new Promise<string[]>((resolve) => {
      const open = indexedDB.open('enishi-history');
      open.onsuccess = () => {
        const db = open.result;
        if (!db.objectStoreNames.contains('talks')) return resolve([]);
        const get = db.transaction('talks').objectStore('talks').get(id);
        get.onsuccess = () => {
          const talk = get.result as { page: { rows: { messages: { message: string }[] }[] } } | undefined;
          resolve(talk ? talk.page.rows.flatMap((group) => group.messages.map((m) => m.message)) : []);
        };
        get.onerror = () => resolve([]);
      };
      open.onerror = () => resolve([]);
    });
  }, conversationId);
}

test('the newest messages of a talk opened before are readable offline, with the outbox as before', async () => {
  const page = await context.newPage();
  await logIn(page, 'woman');
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
  });
  await page.reload();
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null);

  await page.goto('/talkrooms/staff');
  await page.waitForURL(/\/talk\/staff\/\d+$/);
  const desk = Number(new URL(page.url()).pathname.split('/').pop());
  await page.getByRole('textbox', { name: ja.talk.placeholder }).fill('電車の中で読み返します');
  await page.getByRole('button', { name: ja.talk.send, exact: true }).click();
  await timeline(page).getByText('電車の中で読み返します').waitFor();
  await expect.poll(() => keptTexts(page, desk)).toContain('電車の中で読み返します');

  await context.setOffline(true);
  try {
    await page.reload();
    await timeline(page).getByText('電車の中で読み返します').waitFor();
    await page.getByRole('heading', { level: 1, name: ja.talk.staffDesk }).waitFor();
    // Writing offline still waits in the outbox.
    await page.getByRole('textbox', { name: ja.talk.placeholder }).fill('圏外で書いた返事');
    await page.getByRole('button', { name: ja.talk.send, exact: true }).click();
    await timeline(page)
      .getByRole('article')
      .filter({ hasText: '圏外で書いた返事' })
      .getByText(ja.talk.waiting)
      .waitFor();
    await photograph(page, 'polish-talk-offline-375.png');
  } finally {
    await context.setOffline(false);
  }
  await timeline(page)
    .getByRole('article')
    .filter({ hasText: '圏外で書いた返事' })
    .getByText(ja.talk.waiting)
    .waitFor({ state: 'detached', timeout: 20_000 });
  await page.close();
});

test('the news last read is readable offline', async () => {
  const page = await context.newPage();
  await logIn(page, 'woman');
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
  });
  await page.reload();
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null);
  // Staff publish news for women (type 2) through the API.
  const staff = await context.request.post('/api/login', {
    data: { id: 'staff-e2e', password: 'Staff-pass.1' },
  });
  const { session } = (await staff.json()) as { session: string };
  const title = `オフラインでも読めるお知らせ${Date.now() % 100000}`;
  const added = await context.request.post('/api/news/add', {
    data: { ssid: session, title, body: '雨の日の予定をご案内します。', type: 2, images: [] },
  });
  expect(added.ok()).toBe(true);

  await page.goto('/news');
  await page.getByText(title).waitFor();
  await context.setOffline(true);
  try {
    await page.reload();
    await page.getByText(jaMember.newsMore.offlineCopy).waitFor();
    await page.getByText(title).waitFor();
  } finally {
    await context.setOffline(false);
  }
  await page.close();
});
