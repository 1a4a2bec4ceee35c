import { jaMember, japanTime } from '@enishi/contract';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { axeViolations } from '../lib/axe.js';
import { launchBrowser, logIn, newPhone } from '../lib/browser.js';
import { desk, keyboardProblems, settled } from '../lib/screens.js';
import { photograph } from '../lib/photograph.js';

/*
 * Reports (product.md §2.9) in Chromium at 1440 px: the admin opens レポート from the side navigation and sees
 * this month's five charts drawn, each with its table and CSVダウンロード (a download named for the table and
 * month); axe finds nothing and Tab reaches everything. Staff of role 3 have no entry and are sent home.
 * Screenshots: e2e/screenshots/office-reports-1440.png (the top) and office-reports-messages-1440.png.
 */

const t = jaMember.reports;
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

describe('the reports screen', () => {
  test('the admin sees this month’s charts with their tables, downloads one as CSV; axe is clean', async () => {
    await admin.getByRole('link', { name: jaMember.shell.reports }).click();
    await admin.waitForURL('**/reports');
    await admin.getByRole('heading', { level: 1, name: t.title }).waitFor();
    const month = japanTime(new Date()).dateKey.slice(0, 7);
    expect(await admin.getByLabel(t.month, { exact: true }).inputValue()).toBe(month);
    const titles = [t.replies.title, t.staff.title, t.messages.title, t.open.title, t.settings.title];
    for (const title of titles) {
      await admin.getByRole('table', { name: title }).waitFor();
      // The staff chart has bars only once someone answered this month (on this server, maybe nobody yet).
      if (title === t.staff.title) continue;
      await admin
        .getByRole('img', { name: t.chartLabel(title) })
        .locator('canvas')
        .waitFor();
    }
    // Today's row is the last of the day tables; the settings table ends with this month.
    const today = japanTime(new Date()).dateKey;
    await admin.getByRole('table', { name: t.open.title }).getByRole('rowheader', { name: today }).waitFor();
    await admin
      .getByRole('table', { name: t.settings.title })
      .getByRole('rowheader', { name: month })
      .waitFor();
    await settled(admin);

    // Tab from the top of a fresh load reaches every control, the tables' scrolling boxes included.
    await admin.reload();
    await admin.getByRole('table', { name: t.settings.title }).waitFor();
    await settled(admin);
    expect(await keyboardProblems(admin)).toEqual([]);

    const download = admin.waitForEvent('download');
    await admin.getByRole('button', { name: t.csvOf(t.messages.title) }).click();
    expect((await download).suggestedFilename()).toBe(`messages-by-day-${month}.csv`);

    expect(await axeViolations(admin)).toEqual([]);
    // The page scrolls inside the shell, so a full-page capture would cut it: the top, then a count chart.
    await admin.getByRole('heading', { level: 1 }).scrollIntoViewIfNeeded();
    await photograph(admin, 'office-reports-1440.png');
    await admin.getByRole('img', { name: t.chartLabel(t.messages.title) }).scrollIntoViewIfNeeded();
    await photograph(admin, 'office-reports-messages-1440.png');
  });

  test('staff of role 3 have no entry for it, and the address takes them home', async () => {
    const staff = await (await newPhone(browser, desk)).newPage();
    await logIn(staff, 'staff');
    expect(await staff.getByRole('link', { name: jaMember.shell.reports }).count()).toBe(0);
    await staff.goto('/reports');
    await staff.waitForURL((url) => url.pathname === '/');
  });
});
