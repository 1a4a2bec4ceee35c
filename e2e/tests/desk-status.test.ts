import { jaMember } from '@enishi/contract';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createMember, logInAs, uniqueTag } from '../lib/admin.js';
import { axeViolations } from '../lib/axe.js';
import { launchBrowser, logIn, newPhone } from '../lib/browser.js';
import { desk, settled } from '../lib/screens.js';
import { sendComment, timeline } from '../lib/talk.js';
import { photograph } from '../lib/photograph.js';

/*
 * A desk talk's status (product.md §2.6) in Chromium at 1440 px: one staff member marks a man's talk 対応済み
 * with the keyboard, the man writes again, and on a second staff member's desk the talk shows 未対応 again,
 * live, in the open talk's buttons and in the list; axe finds nothing. Screenshot:
 * e2e/screenshots/desk-status-1440.png.
 */

const t = jaMember.deskTalk;
const tag = uniqueTag();
const member = { id: `ds-${tag}`, password: 'Desk-pass.1', name: `対応${tag}`, role: 101 as const, rank: 1 };

let browser: Browser;
const contexts: BrowserContext[] = [];
let staff: Page;
let admin: Page;
let man: Page;

const errors: string[] = [];

/** Opens the man's talk on a staff desk from the men's list. */
async function openTalk(page: Page): Promise<void> {
  page.on('pageerror', (error) => errors.push(`${error.message} ${error.stack ?? ''}`));
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  await page.goto(`/talkrooms/men?q=${encodeURIComponent(member.name)}`);
  await page
    .getByRole('link', { name: new RegExp(member.name) })
    .click({ timeout: 15_000 })
    .catch(async (error: unknown) => {
      await photograph(page, 'desk-status-failed-1440.png');
      throw new Error(`${String(error)} ${errors.join(' | ')}`);
    });
  await page.waitForURL(/\/talk\/\d+$/);
  await timeline(page).waitFor();
}

const pressed = (page: Page) =>
  page.getByRole('group', { name: t.statusGroup }).locator('button[aria-pressed="true"]').innerText();

beforeAll(async () => {
  browser = await launchBrowser();
  const [first, second, phone] = [
    await newPhone(browser, desk),
    await newPhone(browser, desk),
    await newPhone(browser),
  ];
  contexts.push(first, second, phone);
  staff = await first.newPage();
  admin = await second.newPage();
  man = await phone.newPage();
  await logIn(staff, 'staff');
  await logIn(admin, 'admin');
  await createMember(staff, member);
  await logInAs(man, member);
  await man.goto('/talkrooms/staff');
  await man.waitForURL(/\/talk\/staff\/\d+$/);
  await sendComment(man, 'お見合いの日程について相談させてください');
});
afterAll(async () => {
  for (const context of contexts) await context.close();
  await browser?.close();
});

describe('a desk talk’s status, live on every staff desk', () => {
  test('対応済み by one staff member, reopened by the member’s message on another’s desk', async () => {
    await openTalk(staff);
    await openTalk(admin);
    await expect.poll(() => pressed(admin)).toBe(t.statuses.open);

    // By keyboard: the button is reached and pressed like any other.
    const done = staff
      .getByRole('group', { name: t.statusGroup })
      .getByRole('button', { name: t.statuses.done, exact: true });
    await done.focus();
    await staff.keyboard.press('Enter');
    await expect.poll(() => pressed(staff)).toBe(t.statuses.done);
    // The other desk hears it without a reload.
    await expect.poll(() => pressed(admin)).toBe(t.statuses.done);

    await sendComment(man, 'もう一点、服装についても伺えますか');
    await expect.poll(() => pressed(admin)).toBe(t.statuses.open);
    const row = admin
      .getByRole('navigation', { name: jaMember.desk.rooms })
      .getByRole('listitem')
      .filter({ hasText: member.name });
    await expect.poll(() => row.innerText()).toContain(t.statuses.open);

    await settled(admin);
    expect(await axeViolations(admin)).toEqual([]);
    await photograph(admin, 'desk-status-1440.png');
  });

  test('自分の担当 filters the list, and the side navigation counts it', async () => {
    await openTalk(staff);
    await staff.getByRole('button', { name: t.takeMine, exact: true }).click();
    const picker = staff.getByRole('combobox', { name: t.assignee, exact: true });
    await expect
      .poll(() => picker.evaluate((select: HTMLSelectElement) => select.selectedOptions[0]?.text))
      .toBe('鈴木スタッフ');
    await staff.goto('/talkrooms/men?assignee=me');
    await staff.getByRole('link', { name: new RegExp(member.name) }).waitFor();
    const mine = staff
      .getByRole('navigation', { name: jaMember.shell.nav })
      .getByRole('link', { name: new RegExp(t.navMine) });
    await expect.poll(() => mine.innerText()).toMatch(/\d/);
    expect(await axeViolations(staff)).toEqual([]);
  });
});
