import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { ja, jaMember } from '@enishi/contract';
import { createMember, logInAs, uniqueTag } from '../lib/admin.js';
import { launchBrowser, logIn, newPhone } from '../lib/browser.js';
import { desk, settled } from '../lib/screens.js';
import { sendComment } from '../lib/talk.js';
import { photograph } from '../lib/photograph.js';

/*
 * The desk's day (product.md §2.6, §2.8, §12.3; issue 46): a man waiting for an answer stays on the first
 * page of the desk list after 30 men are added; 最終利用 says 未ログイン for who never logged in; a member
 * table's filter, sort and page live in the address; the desk list's head does not repeat the side
 * navigation; a toast at 1440 px stays off the screen's title. Screenshots in e2e/screenshots/desk-day-*.
 */

const tag = uniqueTag();
const waiting = {
  id: `day-${tag}-w`,
  password: 'Day-pass.1',
  name: `待機${tag}`,
  role: 101 as const,
  rank: 1,
};
const ADDED = 30;

let browser: Browser;
const contexts: BrowserContext[] = [];
let staff: Page;

beforeAll(async () => {
  browser = await launchBrowser();
  const office = await newPhone(browser, desk);
  const phone = await newPhone(browser);
  contexts.push(office, phone);
  staff = await office.newPage();
  await logIn(staff, 'staff');
  await createMember(staff, waiting);
  const man = await phone.newPage();
  await logInAs(man, waiting);
  await man.goto('/talkrooms/staff');
  await man.waitForURL(/\/talk\/staff\/\d+$/);
  await sendComment(man, '来週のご紹介について伺えますか');
  await sendComment(man, 'お返事お待ちしています');
  // 30 men added after his messages: their talks are empty, and newer than his last message.
  for (let i = 0; i < ADDED; i += 1) {
    await createMember(staff, {
      id: `day-${tag}-${i}`,
      password: 'Day-pass.1',
      name: `新人${tag}の${i}`,
      role: 101,
      rank: 1,
    });
  }
});
afterAll(async () => {
  for (const context of contexts) await context.close();
  await browser?.close();
});

const rooms = (page: Page) => page.getByRole('navigation', { name: jaMember.desk.rooms });
const keywordBox = (page: Page) => page.getByRole('searchbox', { name: jaMember.table.keyword });

describe('the desk’s day at 1440 px', () => {
  test('the man waiting for an answer is on the first page of the desk list, above the new men', async () => {
    await staff.goto('/talkrooms/men');
    const list = rooms(staff);
    const him = list.getByRole('link', { name: new RegExp(`^${waiting.name}`) });
    await him.waitFor();
    const names = await list.locator('a.room-row .room-row__name').allTextContents();
    const at = names.indexOf(waiting.name);
    expect(at).toBeGreaterThanOrEqual(0);
    expect(at).toBeLessThan(20);
    const firstNew = names.findIndex((name) => name.startsWith(`新人${tag}`));
    expect(firstNew).toBeGreaterThan(at);
    // The newest of the new men first.
    expect(names[firstNew]).toBe(`新人${tag}の${ADDED - 1}`);
    const unread = await him.getAttribute('aria-describedby');
    expect(await staff.locator(`[id="${unread}"]`).textContent()).toBe(ja.home.unread(2));
    // The list's head has no ホーム or 定型文 of its own: the side navigation has them.
    expect(await list.getByRole('link', { name: jaMember.shell.home, exact: true }).count()).toBe(0);
    expect(await list.getByRole('link', { name: jaMember.desk.replies, exact: true }).count()).toBe(0);
    const side = staff.getByRole('navigation', { name: jaMember.shell.nav });
    await side.getByRole('link', { name: jaMember.shell.home, exact: true }).waitFor();
    await photograph(staff, 'desk-day-list-1440.png');
  });

  test('a member table keeps its filter, sort and page in the address; 未ログイン for who never logged in', async () => {
    await staff.goto(`/menlist?q=day-${tag}&sort=name&order=asc&size=25&page=2`);
    await settled(staff);
    expect(await keywordBox(staff).inputValue()).toBe(`day-${tag}`);
    const table = staff.getByRole('table');
    await table.getByRole('rowheader').first().waitFor();
    // 31 men, 25 a page: the second page holds 6.
    expect(await table.getByRole('rowheader').count()).toBe(6);
    await staff.getByText(jaMember.table.pageOf(2, 2)).first().waitFor();
    await staff.reload();
    await settled(staff);
    expect(await keywordBox(staff).inputValue()).toBe(`day-${tag}`);
    expect(await table.getByRole('rowheader').count()).toBe(6);

    await staff.goto(`/menlist?q=day-${tag}`);
    await settled(staff);
    const row = (name: string) =>
      table.getByRole('row').filter({ has: staff.getByRole('rowheader', { name }) });
    expect(await row(waiting.name).locator('.member-table__cell--activity').textContent()).not.toBe(
      jaMember.table.neverLoggedIn,
    );
    expect(await row(`新人${tag}の0`).locator('.member-table__cell--activity').textContent()).toBe(
      jaMember.table.neverLoggedIn,
    );
    await photograph(staff, 'desk-day-menlist-1440.png');

    // Away to a talk and back: the same filter.
    await row(waiting.name).getByRole('button', { name: waiting.name }).click();
    await staff.getByRole('link', { name: jaMember.table.toTalk }).click();
    await staff.waitForURL(/\/talk\/\d+$/);
    await staff.goBack();
    await staff.waitForURL(
      (url) => url.pathname === '/menlist' && url.searchParams.get('q') === `day-${tag}`,
    );
    expect(await keywordBox(staff).inputValue()).toBe(`day-${tag}`);

    await staff.goto(`/menlist?q=nobody-${tag}`);
    await staff.getByText('条件に合う記録はありません').waitFor();
  });

  test('a toast at 1440 px leaves the screen’s title visible, and saving in the side panel keeps the address', async () => {
    await staff.goto(`/menlist?q=day-${tag}-w`);
    await settled(staff);
    await staff.getByRole('rowheader', { name: waiting.name }).getByRole('button').click();
    const panel = staff.getByRole('complementary', { name: jaMember.table.panel(waiting.name) });
    await panel.getByRole('button', { name: jaMember.members.submitEdit }).click();
    const shown = staff
      .getByRole('status')
      .getByText(jaMember.members.updated(waiting.name), { exact: true });
    await shown.waitFor();
    // Photographed once it has faded in.
    await shown.evaluate((node) =>
      Promise.all((node.closest('.toast') ?? node).getAnimations().map((each) => each.finished)),
    );
    const title = staff.getByRole('heading', { level: 1, name: ja.screens.menList });
    const [toastBox, titleBox] = await Promise.all([shown.boundingBox(), title.boundingBox()]);
    const apart =
      toastBox!.x >= titleBox!.x + titleBox!.width ||
      toastBox!.x + toastBox!.width <= titleBox!.x ||
      toastBox!.y >= titleBox!.y + titleBox!.height ||
      toastBox!.y + toastBox!.height <= titleBox!.y;
    expect(apart, JSON.stringify({ toastBox, titleBox })).toBe(true);
    await photograph(staff, 'desk-day-toast-1440.png');
    expect(new URL(staff.url()).searchParams.get('q')).toBe(`day-${tag}-w`);
  });
});
