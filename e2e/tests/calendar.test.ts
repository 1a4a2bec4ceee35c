import { ja, jaMember, japanTime, nextDeskOpening } from '@enishi/contract';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { sessionId, uniqueTag } from '../lib/admin.js';
import { axeViolations } from '../lib/axe.js';
import { launchBrowser, logIn, newPhone } from '../lib/browser.js';
import { openDeskAsMember, send } from '../lib/desk-talk.js';
import { desk, keyboardProblems, settled } from '../lib/screens.js';
import { photograph } from '../lib/photograph.js';

/*
 * The club's closing days (product.md §9.3) in Chromium at 1440 px: the admin adds one with the keyboard,
 * an overlapping one is refused in Japanese, axe finds nothing, Tab reaches everything, and the admin deletes
 * it again (dates in 2099, so no other test's auto-reply meets them). Then a closing from today: a man writing
 * to the desk is promised the day after it (deleted again at once). Screenshots:
 * e2e/screenshots/office-calendar-1440.png, calendar-auto-reply-375.png.
 */

const t = jaMember.calendar;
const tag = uniqueTag();
const name = `年末年始${tag}`;
let browser: Browser;
let admin: Page;

beforeAll(async () => {
  browser = await launchBrowser();
  admin = await (await newPhone(browser, desk)).newPage();
  await logIn(admin, 'admin');
});
afterAll(async () => {
  await browser?.close();
});

describe('the closing days screen', () => {
  test('the admin adds a closing with the keyboard; an overlapping one is refused; it is deleted', async () => {
    await admin.getByRole('link', { name: jaMember.shell.calendar }).click();
    await admin.waitForURL('**/calendar');
    await admin.getByRole('heading', { level: 1, name: t.title }).waitFor();
    await settled(admin);

    await admin.getByLabel(t.name, { exact: true }).focus();
    await admin.keyboard.type(name);
    // A date field's parts take digits as the locale orders them (a year up to six digits): filled as a whole.
    await admin.keyboard.press('Tab');
    await expect.poll(() => admin.evaluate(() => document.activeElement?.getAttribute('type'))).toBe('date');
    await admin.getByLabel(t.start, { exact: true }).fill('2099-12-29');
    await admin.getByLabel(t.end, { exact: true }).fill('2100-01-03');
    await admin.keyboard.press('Enter');
    const row = admin.getByRole('listitem').filter({ hasText: name });
    await row.waitFor({ timeout: 10_000 }).catch(async (error: unknown) => {
      await photograph(admin, 'office-calendar-failed-1440.png', { fullPage: true });
      throw error;
    });
    expect(await row.innerText()).toContain('2099年12月29日(火) 〜 2100年1月3日(日)');

    await admin.getByLabel(t.name, { exact: true }).fill(`重なり${tag}`);
    await admin.getByLabel(t.start, { exact: true }).fill('2100-01-03');
    await admin.getByLabel(t.end, { exact: true }).fill('2100-01-05');
    await admin.getByRole('button', { name: t.add, exact: true }).click();
    await expect.poll(() => admin.getByRole('alert').innerText()).toBe(t.errors.overlaps(name));

    expect(await axeViolations(admin)).toEqual([]);
    await photograph(admin, 'office-calendar-1440.png', { fullPage: true });
    expect(await keyboardProblems(admin)).toEqual([]);

    await admin.getByRole('button', { name: t.remove(name) }).focus();
    await admin.keyboard.press('Enter');
    await row.waitFor({ state: 'detached' });
  });

  test('other staff have no entry for it, and the address takes them home', async () => {
    const staff = await (await newPhone(browser, desk)).newPage();
    await logIn(staff, 'staff');
    expect(await staff.getByRole('link', { name: jaMember.shell.calendar }).count()).toBe(0);
    await staff.goto('/calendar');
    await staff.waitForURL((url) => url.pathname === '/');
  });

  test('a man writing on a closing day is promised the first open day after it', async () => {
    const day = (offset: number) => japanTime(new Date(Date.now() + offset * 864e5)).dateKey;
    const closing = { name: `臨時休業${tag}`, start: day(0), end: day(2) };
    const ssid = await sessionId(admin);
    const added = await admin.request.post('/api/calendar/add', { data: { ssid, ...closing } });
    expect(added.status(), await added.text()).toBe(200);
    const { id } = (await added.json()) as { id: number };
    try {
      const man = await (await newPhone(browser, { width: 375, height: 812 })).newPage();
      await logIn(man, 'man');
      await openDeskAsMember(man);
      await send(man, `休み中のご相談です ${tag}`);
      const note = man.getByRole('note', { name: ja.talk.autoReplyLabel });
      await expect.poll(() => note.innerText()).toContain(nextDeskOpening(new Date(), [closing]));
      await photograph(man, 'calendar-auto-reply-375.png');
    } finally {
      await admin.request.post('/api/calendar/delete', { data: { ssid, id } });
    }
  });
});
