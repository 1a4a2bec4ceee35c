import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { inject } from '../lib/suite.js';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { jaMember, slotOf } from '@enishi/contract';
import { createMember, logInAs, sessionId, toast, uniqueTag } from '../lib/admin.js';
import { launchBrowser, logIn, newPhone } from '../lib/browser.js';
import { checkScreen, desk, phone390 } from '../lib/screens.js';
import { people } from '../lib/users.js';

/*
 * The staff back office at a desk (product.md §2.8): the shell, the member tables with their side panel,
 * the settings board and calendar with a request arriving live, and the owner's audit log. Every screen is
 * checked with axe at 1440 px and photographed at 1440 and 390 px (e2e/screenshots/). One browser, one
 * owner login at each size, and a man of this file's own: the settings he asks for (and the group talk an
 * arranged one opens) never touch the seeded pair that other files' group talks and settings use.
 */

const DAY = 86_400_000;

let browser: Browser;
let owner: Page;
let ownerPhone: Page;
let man: Page;
const contexts: BrowserContext[] = [];

async function loggedIn(who: 'owner', viewport: { width: number; height: number }) {
  const context = await newPhone(browser, viewport);
  contexts.push(context);
  const page = await context.newPage();
  await logIn(page, who);
  return page;
}

const officeMan = {
  id: `office-man-${uniqueTag()}`,
  password: 'Office-pass.1',
  name: '鈴木一郎',
  role: 101 as const,
  rank: people.man.rank,
};

beforeAll(async () => {
  browser = await launchBrowser();
  [owner, ownerPhone] = await Promise.all([loggedIn('owner', desk), loggedIn('owner', phone390)]);
  await createMember(owner, officeMan);
  const context = await newPhone(browser, { width: 375, height: 812 });
  contexts.push(context);
  man = await context.newPage();
  await logInAs(man, officeMan);
});
afterAll(async () => {
  for (const context of contexts) await context.close();
  await browser?.close();
});

const nav = (page: Page) => page.getByRole('navigation', { name: jaMember.shell.nav });

/** Axe at 1440 px finds nothing on the owner's page as the test left it, and both sizes are photographed. */
const check = (path: string, name: string, ready: (page: Page) => Promise<unknown>) =>
  checkScreen({ desk: owner, phone: ownerPhone }, path, name, ready);

/** A man's setting request with the woman, over the app's own API; its id. */
async function askForSetting(days: number): Promise<number> {
  const slot = (d: number, hour: number) =>
    `${slotOf(new Date(Date.now() + d * DAY)).slice(0, 10)}T${hour}:00`;
  const reply = await man.request.post('/api/setting/add', {
    data: {
      ssid: await sessionId(man),
      women_id: inject('uids')[people.woman.id],
      preferred1: slot(days, 19),
      preferred2: slot(days + 1, 19),
      preferred3: slot(days + 2, 12),
      note: '',
    },
  });
  expect(reply.status(), await reply.text()).toBe(200);
  return ((await reply.json()) as { id: number }).id;
}

describe('the staff back office at 1440 px', () => {
  test('the shell: side navigation with counts, no bottom tab bar; phones keep the tab bar', async () => {
    await owner.goto('/');
    const links = nav(owner).getByRole('link');
    for (const label of [
      'トーク',
      '男性会員',
      '女性会員',
      'セッティング',
      '申込',
      '最新情報',
      '広告',
      '一括送信',
      '定型文',
      'スタッフ',
      '監査ログ',
    ]) {
      await links.filter({ hasText: label }).first().waitFor();
    }
    expect(await owner.locator('.app-footer').count()).toBe(0);
    await nav(owner).getByRole('link', { name: '男性会員' }).click();
    await owner.waitForURL('**/menlist');
    // The URL changes a moment before React marks the link (the screen's chunk loads in between).
    await nav(owner)
      .locator('a[aria-current="page"]')
      .filter({ hasText: '男性会員' })
      .waitFor({ timeout: 5_000 });
    // A sub-screen marks its own entry alone: /men/send is 一括送信's, not 男性会員's.
    await nav(owner).getByRole('link', { name: '一括送信' }).click();
    await owner.waitForURL('**/men/send');
    await nav(owner)
      .locator('a[aria-current="page"]')
      .filter({ hasText: '一括送信' })
      .waitFor({ timeout: 5_000 });
    expect(await nav(owner).locator('a[aria-current="page"]').count()).toBe(1);
    await ownerPhone.goto('/');
    await ownerPhone.locator('.app-footer').waitFor();
    expect(await ownerPhone.getByRole('navigation', { name: jaMember.shell.nav }).count()).toBe(0);
    await check('/', 'home', (page) => page.locator('.app-footer').waitFor());
  });

  test('a new setting request reaches staff live: a toast and the badge, no reload', async () => {
    // The request is made once the page's chat socket is live (its `ready` frame): one made before would
    // reach a socket that is not there yet, and the 2 s below are for the request's way to the desk.
    const live = owner.waitForEvent('websocket').then((socket) =>
      socket.waitForEvent('framereceived', {
        predicate: ({ payload }) => String(payload).includes('"type":"ready"'),
      }),
    );
    await owner.goto('/menlist');
    await owner.getByRole('table').waitFor();
    await live;
    await askForSetting(3);
    await toast(owner, jaMember.settingNotice.newRequest(officeMan.name, people.woman.name)).waitFor({
      timeout: 2_000,
    });
    await nav(owner)
      .getByRole('link', { name: /セッティング\s*（\d+件）/ })
      .waitFor({ timeout: 2_000 })
      .catch(async (error: unknown) => {
        throw new Error(`nav: ${(await nav(owner).innerText()).replace(/\s+/g, ' ')}`, { cause: error });
      });
  });

  test('the men table sorts by column, and a row opens the record in a side panel, editable in place', async () => {
    await owner.goto('/menlist');
    const table = owner.getByRole('table');
    await table.getByRole('button', { name: people.man.name }).waitFor();
    const header = table.getByRole('columnheader', { name: /名前/ });
    await header.getByRole('button').click();
    await owner.waitForFunction(() => document.querySelector('th[aria-sort]')?.textContent?.includes('名前'));
    expect(await header.getAttribute('aria-sort')).toBe('ascending');
    await header.getByRole('button').press('Enter');
    await owner.waitForFunction(
      () => document.querySelector('th[aria-sort]')?.getAttribute('aria-sort') === 'descending',
    );

    await table.getByRole('button', { name: people.man.name }).press('Enter');
    const panel = owner.getByRole('complementary', { name: jaMember.table.panel(people.man.name) });
    await panel.getByLabel('紹介者').waitFor();
    await expect(
      panel.getByRole('link', { name: jaMember.table.toTalk, exact: true }).isVisible(),
    ).resolves.toBe(true);
    await panel.getByRole('heading', { name: jaMember.table.settings }).waitFor();
    await panel.getByLabel('紹介者').fill('デスク 紹介');
    await panel.getByRole('button', { name: '修正する' }).click();
    await toast(owner, jaMember.members.updated(people.man.name)).waitFor();
    await owner.keyboard.press('Escape');
    await panel.waitFor({ state: 'detached' });
    await check('/menlist', 'menlist', (page) => page.getByRole('searchbox').waitFor());
  });

  test('the settings board has its four columns; the calendar shows an arranged setting linked to its talk', async () => {
    const id = await askForSetting(1);
    const update = await owner.request.post('/api/setting/update', {
      data: { ssid: await sessionId(owner), id, status: 'arranged', slot: 1, place: '銀座のラウンジ' },
    });
    expect(update.status(), await update.text()).toBe(200);
    await owner.goto('/setting/requests');
    for (const column of ['依頼中', '確定', 'お断り', '取消']) {
      await owner.getByRole('heading', { level: 2, name: new RegExp(`^${column}`) }).waitFor();
    }
    await owner.getByRole('region', { name: /^確定/ }).getByText('銀座のラウンジ').first().waitFor();
    await check('/setting/requests', 'board', (page) => page.getByRole('heading', { level: 1 }).waitFor());

    await owner.goto('/setting/requests?view=calendar');
    await owner.getByRole('button', { name: '月' }).click();
    const pair = jaMember.board.pair(officeMan.name, people.woman.name);
    // Tomorrow may fall in the next month.
    const entry = owner.getByRole('link', { name: new RegExp(pair) }).first();
    if (!(await entry.isVisible())) await owner.getByRole('button', { name: '次へ' }).click();
    expect(await entry.getAttribute('href')).toMatch(/^\/talk\/\d+$/);
    await owner.getByRole('button', { name: '週' }).click();
    await check('/setting/requests?view=calendar', 'calendar', (page) =>
      page.getByRole('heading', { level: 2 }).first().waitFor(),
    );
  });

  test('the audit log speaks Japanese, filters by person and action, and exports CSV with a BOM', async () => {
    await owner.goto('/staff/audit');
    const rows = owner.locator('.audit__row');
    await rows.first().waitFor();
    const text = await owner.locator('.audit__rows').innerText();
    expect(text).not.toMatch(/added|#\d+/);
    await owner.getByLabel(jaMember.audit.person, { exact: true }).fill(people.man.name);
    await owner.getByLabel(jaMember.audit.action, { exact: true }).selectOption('update');
    await owner.getByRole('button', { name: jaMember.audit.apply }).click();
    await owner.waitForFunction(() =>
      Array.from(document.querySelectorAll('.audit__action')).every((each) => each.textContent === '修正'),
    );
    await owner.getByText('デスク 紹介').first().waitFor();
    const [download] = await Promise.all([
      owner.waitForEvent('download'),
      owner.getByRole('button', { name: jaMember.audit.exportCsv }).click(),
    ]);
    const path = await download.path();
    const { readFile } = await import('node:fs/promises');
    const csv = await readFile(path);
    expect([...csv.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    expect(csv.toString('utf8')).toContain('デスク 紹介');
    await check('/staff/audit', 'audit', (page) => page.locator('.audit__row').first().waitFor());
  });
});
