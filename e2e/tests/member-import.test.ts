import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { readFile } from 'node:fs/promises';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { jaMember } from '@enishi/contract';
import { uniqueTag } from '../lib/admin.js';
import { axeViolations } from '../lib/axe.js';
import { launchBrowser, logIn, newPhone } from '../lib/browser.js';
import { desk, settled } from '../lib/screens.js';
import { photograph } from '../lib/photograph.js';

/*
 * The member tables' CSV import at 1440 px (product.md §2.8): a file with a bad row is previewed with the
 * error under its cell and 取り込む stays off; the corrected file imports and offers the first passwords.
 * Screenshots: e2e/screenshots/member-import-preview-1440.png, member-import-done-1440.png.
 */

const t = jaMember.memberImport;
const f = jaMember.members.fields;
const tag = uniqueTag();
const header = [f.name, f.name_kana, f.id, f.rank, f.introducer].join(',');
const file = (rows: string[]) => ({
  name: 'members.csv',
  mimeType: 'text/csv',
  buffer: Buffer.from(`\uFEFF${[header, ...rows].join('\r\n')}\r\n`),
});

let browser: Browser;
let context: BrowserContext;
let staff: Page;

beforeAll(async () => {
  browser = await launchBrowser();
  context = await newPhone(browser, desk);
  staff = await context.newPage();
  await logIn(staff, 'staff');
});
afterAll(async () => {
  await context?.close();
  await browser?.close();
});

describe('CSVインポート at 1440 px', () => {
  test('previews the errors per cell, then imports all rows and offers the first passwords', async () => {
    await staff.goto('/menlist');
    await settled(staff);
    await staff.getByRole('button', { name: t.open }).click();
    const input = staff.getByLabel(t.file);
    await input.setInputFiles(
      file([`取込${tag}一,とりこみ,imp-${tag}-1,一般,`, `取込${tag}二,Torikomi,imp-${tag}-2,一般,`]),
    );
    await staff.getByText(jaMember.members.errors.kanaInvalid).waitFor();
    await staff.getByText(t.summary(2, 1)).waitFor();
    expect(await staff.getByRole('button', { name: t.submit }).isDisabled()).toBe(true);
    expect(await axeViolations(staff)).toEqual([]);
    await photograph(staff, 'member-import-preview-1440.png');

    await input.setInputFiles(
      file([`取込${tag}一,とりこみ,imp-${tag}-1,一般,`, `取込${tag}二,とりこみ,imp-${tag}-2,一般,`]),
    );
    await staff.getByText(t.summary(2, 0)).waitFor();
    await staff.getByRole('button', { name: t.submit }).click();
    const download = staff.getByRole('button', { name: t.passwordsDownload });
    await download.waitFor();
    const [saved] = await Promise.all([staff.waitForEvent('download'), download.click()]);
    expect(saved.suggestedFilename()).toBe(t.passwordsFile('men'));
    const lines = (await readFile(await saved.path())).toString('utf8').replace('\uFEFF', '').split('\r\n');
    expect(lines[0]).toBe('ID,初回パスワード');
    expect(lines[1]).toMatch(new RegExp(`^imp-${tag}-1,[0-9A-Z]{4}(-[0-9A-Z]{4}){4}$`));
    expect(await axeViolations(staff)).toEqual([]);
    await photograph(staff, 'member-import-done-1440.png');
  });
});
