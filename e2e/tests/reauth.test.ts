import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Browser } from 'playwright-core';
import { generateSync } from 'otplib';
import { ja, jaMember } from '@enishi/contract';
import { freePort } from '../../server/src/test/process.js';
import { axeViolations } from '../lib/axe.js';
import { launchBrowser, phone } from '../lib/browser.js';
import { seedUsers, serverEnv, startServer, type RunningServer } from '../lib/server.js';
import { photograph } from '../lib/photograph.js';

/*
 * Fresh proof in Chromium (product.md §11.8): a staff member whose login is older than REAUTH_WINDOW_S sets
 * up an authenticator app from ログインとセキュリティ; the server asks for proof, the 本人確認 dialog takes the
 * password, and the setup carries on by itself. The window is shortened to a few seconds so the test can
 * outlive it; the file runs its own server.
 */

const WINDOW_S = 8;
const staff = { id: 'staff-reauth', password: 'Staff-pass.3', name: '佐藤スタッフ', role: 3 };

let server: RunningServer;
let origin: string;
let browser: Browser;

beforeAll(async () => {
  const port = await freePort();
  origin = `http://localhost:${port}`;
  const env = serverEnv(port, { PUBLIC_ORIGIN: origin, REAUTH_WINDOW_S: String(WINDOW_S) });
  seedUsers(env, [staff]);
  server = await startServer(env);
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

describe('fresh proof in the browser', () => {
  test('staff add an authenticator app after the window: the dialog asks for the password, then the setup goes on', async () => {
    const context = await browser.newContext({
      baseURL: origin,
      viewport: phone,
      locale: 'ja-JP',
      timezoneId: 'Asia/Tokyo',
      serviceWorkers: 'block',
    });
    const page = await context.newPage();
    await page.goto('/login');
    await page.getByLabel(ja.login.id, { exact: true }).fill(staff.id);
    await page.getByLabel(ja.login.password, { exact: true }).fill(staff.password);
    await page.getByRole('button', { name: ja.login.submit, exact: true }).click();
    await page.waitForURL('**/mypage');
    const loggedIn = Date.now();
    await page.goto('/security');
    const start = page.getByRole('button', { name: jaMember.security.totpStart });
    await start.waitFor();
    // The login's own proof runs out: there is no event for a time rule to pass, so the test waits it out.
    await page.waitForTimeout(Math.max(0, loggedIn + WINDOW_S * 1000 + 500 - Date.now()));
    await start.click();

    const dialog = page.getByRole('dialog', { name: jaMember.reauth.title });
    await dialog.waitFor();
    expect(await axeViolations(page)).toEqual([]);
    await photograph(page, 'reauth-dialog.png', { fullPage: true });
    // A wrong password is said in the dialog.
    await dialog.getByLabel(jaMember.reauth.password).fill('Wrong-pass.9');
    await dialog.getByRole('button', { name: jaMember.reauth.submit }).click();
    await dialog.getByRole('alert').getByText(jaMember.reauth.errors.passwordWrong).waitFor();
    await dialog.getByLabel(jaMember.reauth.password).fill(staff.password);
    await dialog.getByRole('button', { name: jaMember.reauth.submit }).click();

    // The setup that was refused carries on: the QR code and the key, and a first code finishes it.
    await page.getByRole('img', { name: jaMember.security.totpQr }).waitFor();
    expect(await dialog.count()).toBe(0);
    const secret = (await page.getByTestId('totp-secret').innerText()).trim();
    await page
      .getByLabel(jaMember.security.totpCode)
      .fill(generateSync({ secret, epoch: Math.floor(Date.now() / 1000) }));
    await page.getByRole('button', { name: jaMember.security.totpConfirm }).click();
    // Confirming is a sensitive change too: within the fresh window it needs no second proof.
    await page.getByRole('status').getByText(jaMember.security.totpDone).first().waitFor();
    await expect.poll(() => page.getByTestId('recovery-codes').locator('li').count()).toBe(10);
    await context.close();
  });
});
