import { afterAll, beforeAll, expect, test } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { ja, jaMember } from '@enishi/contract';
import { launchBrowser, logIn, newPhone } from '../lib/browser.js';
import { messageMenu, openDeskAsMember, openDeskAsStaff } from '../lib/desk-talk.js';
import { sendComment, timeline } from '../lib/talk.js';
import { people } from '../lib/users.js';
import { photograph } from '../lib/photograph.js';

/*
 * 送信取消 (product.md §15.4) in Chromium: a man takes back his message in his talk with the staff; the staff's
 * open talk shows 「メッセージの送信を取り消しました」 in its place at once, both sides again after a reload, and
 * the owner's audit log keeps the words taken back.
 */

const UNSENT = jaMember.unsend.unsent;
let browser: Browser;
const contexts: BrowserContext[] = [];

async function loggedIn(who: 'man' | 'staff' | 'owner', viewport = { width: 390, height: 844 }) {
  const context = await newPhone(browser, viewport);
  contexts.push(context);
  const page = await context.newPage();
  await logIn(page, who);
  return page;
}

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  for (const context of contexts) await context.close();
  await browser?.close();
});

const unsentRow = (page: Page) => timeline(page).locator('article.msg--unsent').filter({ hasText: UNSENT });

test('a man takes back his message: staff see it replaced live and after a reload; the audit log keeps it', async () => {
  const man = await loggedIn('man');
  const staff = await loggedIn('staff');
  await openDeskAsMember(man);
  await openDeskAsStaff(staff, people.man.name);

  await sendComment(man, '取り消す前の確認です');
  const words = `間違えて送った言葉 ${Date.now()}`;
  const sent = await sendComment(man, words);
  const id = await sent.getAttribute('data-message-id');
  await timeline(staff).getByText(words).waitFor();

  const menu = await messageMenu(man, words);
  await menu.getByRole('menuitem', { name: jaMember.unsend.action }).click();
  const dialog = man.getByRole('alertdialog');
  await dialog.getByText(jaMember.unsend.confirm).waitFor();
  await dialog.getByRole('button', { name: ja.app.yes }).click();
  await man.getByRole('status').getByText(jaMember.unsend.done).waitFor();

  for (const page of [man, staff]) {
    const row = timeline(page).locator(`article[data-message-id="${id}"]`);
    await row.filter({ hasText: UNSENT }).waitFor();
    expect(await timeline(page).getByText(words).count()).toBe(0);
  }
  await photograph(man, 'unsend-talk-390.png');

  for (const page of [man, staff]) {
    await page.reload();
    // This very message as taken back (the talk may hold others taken back before, by other tests).
    await unsentRow(page)
      .and(page.locator(`article[data-message-id="${id}"]`))
      .waitFor();
    expect(await timeline(page).getByText(words).count()).toBe(0);
  }

  // Staff may not take back a member's words: their menu has no 送信取消 for it.
  const staffMenu = await messageMenu(staff, '取り消す前の確認です');
  expect(await staffMenu.getByRole('menuitem', { name: jaMember.unsend.action }).count()).toBe(0);
  await staff.keyboard.press('Escape');

  const owner = await loggedIn('owner', { width: 1440, height: 900 });
  await owner.goto('/staff/audit');
  await owner.getByLabel(jaMember.audit.action, { exact: true }).selectOption('unsend');
  await owner.getByRole('button', { name: jaMember.audit.apply }).click();
  await owner.waitForURL((url) => url.searchParams.get('action') === 'unsend');
  // The whole log may still be on screen just after the address changes (it holds the row too), then the
  // filtered list loads in its place: wait for what the owner ends up reading, only 送信取消 rows, this one
  // among them.
  const unsend = String(jaMember.audit.actions.unsend);
  await expect
    .poll(async () => {
      const rows = await owner.locator('.audit__row').allInnerTexts();
      return {
        others: rows.filter((text) => !text.includes(unsend)).length,
        taken: rows.some((text) => text.includes(words)),
      };
    })
    .toEqual({ others: 0, taken: true });
});
