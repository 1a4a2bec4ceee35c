import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { jaMember } from '@enishi/contract';
import { createMember, logInAs, sessionId, toast, uniqueTag, type Account } from '../lib/admin.js';
import { launchBrowser, logIn, newPhone, phone } from '../lib/browser.js';
import { photograph } from '../lib/photograph.js';

/*
 * ログイン中の端末 (product.md §2.3, §11.6): a member sees the devices logged in as them on mypage and logs the
 * others out; staff log every device of a member out from the member's record (a lost phone). Photographed at
 * 375 and 1440 px into e2e/screenshots (sessions-*.png).
 */

const desktop = { width: 1440, height: 900 };

let browser: Browser;
const contexts: BrowserContext[] = [];
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await Promise.all(contexts.map((context) => context.close()));
  await browser?.close();
});

async function device(viewport = phone): Promise<Page> {
  const context = await newPhone(browser, viewport);
  contexts.push(context);
  return context.newPage();
}

/** Does the server still take this page's session? */
async function sessionWorks(page: Page, ssid: string): Promise<boolean> {
  const reply = await page.request.post('/api/config', { data: { ssid } });
  return reply.status() === 200;
}

const devicesCard = (page: Page) => page.getByRole('region', { name: jaMember.sessions.title });

async function confirmDialog(page: Page): Promise<void> {
  await page.getByRole('alertdialog').getByRole('button', { name: jaMember.sessions.endOne }).click();
}

describe('ログイン中の端末', () => {
  let staff: Page;
  let member: Account & { uid: number };

  beforeAll(async () => {
    staff = await device(desktop);
    await logIn(staff, 'staff');
    const tag = uniqueTag();
    member = { id: `dev${tag}`, password: 'Devices-pass.1', name: `端末 ${tag}`, uid: 0 };
    member.uid = await createMember(staff, { ...member, role: 201 });
  });

  test('a member sees her devices on mypage and logs the others out', async () => {
    const phonePage = await device();
    await logInAs(phonePage, member);
    const laptop = await device(desktop);
    await logInAs(laptop, member);
    const laptopSsid = await sessionId(laptop);

    await phonePage.goto('/mypage');
    const card = devicesCard(phonePage);
    await card.getByText(jaMember.sessions.current).waitFor();
    await expect.poll(() => card.getByRole('listitem').count()).toBe(2);
    await photograph(phonePage, 'sessions-mypage-375.png', { fullPage: true });
    await laptop.goto('/mypage');
    await devicesCard(laptop).getByText(jaMember.sessions.current).waitFor();
    await photograph(laptop, 'sessions-mypage-1440.png', { fullPage: true });
    for (const page of [phonePage, laptop]) {
      const width = await page.evaluate(() => document.documentElement.scrollWidth);
      expect(width).toBeLessThanOrEqual(page.viewportSize()!.width);
    }

    await card.getByRole('button', { name: jaMember.sessions.endOthers }).click();
    await confirmDialog(phonePage);
    await toast(phonePage, jaMember.sessions.endedOthers(1)).waitFor();
    await card.getByText(jaMember.sessions.onlyThis).waitFor();
    expect(await card.getByRole('listitem').count()).toBe(1);
    expect(await sessionWorks(laptop, laptopSsid)).toBe(false);
    // The laptop's next screen finds itself logged out.
    await laptop.goto('/rooms');
    await laptop.waitForURL((url) => url.pathname === '/enter' || url.pathname === '/login');
    expect(await sessionWorks(phonePage, await sessionId(phonePage))).toBe(true);
  });

  test('staff log every device of a member out from her record', async () => {
    const lost = await device();
    await logInAs(lost, member);
    const lostSsid = await sessionId(lost);

    await staff.goto(`/women/edit?id=${member.uid}`);
    const section = staff.getByRole('region', { name: jaMember.sessions.staffTitle });
    await section.getByRole('listitem').first().waitFor();
    const count = await section.getByRole('listitem').count();
    expect(count).toBeGreaterThanOrEqual(1);
    await section.scrollIntoViewIfNeeded();
    await photograph(staff, 'sessions-staff-1440.png', { fullPage: true });

    await section.getByRole('button', { name: jaMember.sessions.staffEndAll }).click();
    await confirmDialog(staff);
    await toast(staff, jaMember.sessions.staffEnded(count)).waitFor();
    await section.getByText(jaMember.sessions.staffNone).waitFor();
    expect(await sessionWorks(lost, lostSsid)).toBe(false);
  });
});
