import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { generateSync } from 'otplib';
import { ja, jaMember, jaSecondStep } from '@enishi/contract';
import { freePort } from '../../server/src/test/process.js';
import { launchBrowser, phone } from '../lib/browser.js';
import { seedUsers, serverEnv, startServer, type RunningServer, type SeedUser } from '../lib/server.js';
import { photograph } from '../lib/photograph.js';

/*
 * The second factor in Chromium (product.md §11.7): a passkey registered and used with the DevTools virtual
 * authenticator, TOTP with codes computed here, and staff made to set one up at login. WebAuthn needs a
 * secure context and a domain for its relying party: this file runs its own server with PUBLIC_ORIGIN on
 * http://localhost (a secure context; traffic stays on 127.0.0.1).
 */

const club = {
  owner: { id: 'owner-2fa', password: 'Owner-pass.1', name: '高橋オーナー', role: 2 },
  man: { id: 'man-2fa', password: 'Man-pass.1', name: '山田太郎', role: 101 },
  staff: { id: 'staff-totp', password: 'Staff-pass.1', name: '鈴木スタッフ', role: 3 },
  forced: { id: 'staff-forced', password: 'Staff-pass.2', name: '田中スタッフ', role: 3 },
} satisfies Record<string, SeedUser>;

let server: RunningServer;
let origin: string;
let browser: Browser;

beforeAll(async () => {
  const port = await freePort();
  origin = `http://localhost:${port}`;
  const env = serverEnv(port, {
    PUBLIC_ORIGIN: origin,
    OWNER_ID: club.owner.id,
    OWNER_PASSWORD: club.owner.password,
  });
  seedUsers(env, [club.man, club.staff, club.forced]);
  server = await startServer(env);
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

async function newPhone(viewport = phone): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({
    baseURL: origin,
    viewport,
    locale: 'ja-JP',
    timezoneId: 'Asia/Tokyo',
    serviceWorkers: 'block',
  });
  return { context, page: await context.newPage() };
}

/** A platform authenticator with resident keys and user verification, as a phone's Face ID would be. */
async function addVirtualAuthenticator(page: Page): Promise<void> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('WebAuthn.enable', { enableUI: false });
  await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
}

async function passwordStep(page: Page, who: SeedUser) {
  await page.goto('/login');
  await page.getByLabel(ja.login.id, { exact: true }).fill(who.id);
  await page.getByLabel(ja.login.password, { exact: true }).fill(who.password);
  await page.getByRole('button', { name: ja.login.submit, exact: true }).click();
}

/** Leaves the app as logging out does on this device, keeping the device token (a separate key). */
async function forgetSession(page: Page) {
  await page.evaluate(() => localStorage.removeItem('enishi'));
}

const toast = (page: Page, text: string) =>
  page
    .getByRole('status')
    .getByText(text)
    .first()
    .waitFor({ timeout: 10_000 })
    .catch(async (error: unknown) => {
      const said = await page.getByRole('status').allInnerTexts();
      await photograph(page, 'second-factor-failure.png', { fullPage: true });
      throw new Error(`waited for ${text}; the screen said: ${said.join(' / ') || '(nothing)'}`, {
        cause: error,
      });
    });

describe('second factor in the browser', () => {
  test('a member registers a passkey, then logs in with it alone and as the second step', async () => {
    const { context, page } = await newPhone();
    await addVirtualAuthenticator(page);
    await passwordStep(page, club.man);
    await page.waitForURL('**/mypage');
    await page.getByRole('link', { name: jaMember.security.menu }).click();
    await page.getByRole('button', { name: jaMember.security.passkeyAdd }).click();
    await toast(page, jaMember.security.passkeyAdded);
    // The first factor comes with 10 recovery codes, shown this once.
    await expect.poll(() => page.getByTestId('recovery-codes').locator('li').count()).toBe(10);
    expect(await page.getByText(jaMember.security.passkeysNone).count()).toBe(0);
    await photograph(page, 'security-passkey.png', { fullPage: true });

    await forgetSession(page);
    await page.goto('/login');
    await page.getByRole('button', { name: ja.login.passkey }).click();
    await page.waitForURL('**/mypage');

    // With a factor, the password alone is not enough: the second step offers the passkey.
    await forgetSession(page);
    await passwordStep(page, club.man);
    await page.getByRole('heading', { name: jaSecondStep.title }).waitFor();
    await photograph(page, 'login-second-step.png');
    await page.getByRole('button', { name: jaSecondStep.passkey }).click();
    await page.waitForURL('**/mypage');
    await context.close();
  });

  test('staff set up an authenticator app from the QR screen and log in with a code', async () => {
    const { context, page } = await newPhone();
    await passwordStep(page, club.staff);
    await page.waitForURL('**/mypage');
    await page.goto('/security');
    await page.getByRole('button', { name: jaMember.security.totpStart }).click();
    await page.getByRole('img', { name: jaMember.security.totpQr }).waitFor();
    const secret = (await page.getByTestId('totp-secret').innerText()).trim();
    await page.getByLabel(jaMember.security.totpCode).fill(wrongCode(secret));
    await page.getByRole('button', { name: jaMember.security.totpConfirm }).click();
    await toast(page, jaSecondStep.errors.codeWrong);
    await page.getByLabel(jaMember.security.totpCode).fill(code(secret));
    await page.getByRole('button', { name: jaMember.security.totpConfirm }).click();
    await toast(page, jaMember.security.totpDone);
    await expect.poll(() => page.getByTestId('recovery-codes').locator('li').count()).toBe(10);
    const recovery = await page.getByTestId('recovery-codes').locator('li').first().innerText();

    await forgetSession(page);
    await passwordStep(page, club.staff);
    const field = page.getByLabel(jaSecondStep.code);
    // A wrong code is refused (the server tests cover spent and stale codes with a clock of their own).
    await field.fill(wrongCode(secret));
    await page.getByRole('button', { name: jaSecondStep.submitCode }).click();
    await toast(page, jaSecondStep.errors.codeWrong);
    // The next step's code: accepted (30 s either side) and later than the one that confirmed the setup.
    await field.fill(code(secret, 30));
    await page.getByRole('button', { name: jaSecondStep.submitCode }).click();
    await page.waitForURL('**/mypage');

    // A recovery code logs in once.
    await forgetSession(page);
    await passwordStep(page, club.staff);
    await page.getByRole('button', { name: jaSecondStep.useRecovery }).click();
    await page.getByLabel(jaSecondStep.recovery).fill(recovery);
    await page.getByRole('button', { name: jaSecondStep.submitRecovery }).click();
    await page.waitForURL('**/mypage');
    await context.close();
  });

  test('the owner requires a second factor: staff without one set it up right after login', async () => {
    // The owner at a desk (1440 px), the staff member on a phone.
    const owner = await newPhone({ width: 1440, height: 900 });
    await addVirtualAuthenticator(owner.page);
    await passwordStep(owner.page, club.owner);
    await owner.page.waitForURL('**/mypage');
    await owner.page.goto('/security');
    // Only an owner with a second factor of their own may switch it (product.md §11.7).
    await owner.page.getByRole('button', { name: jaMember.security.passkeyAdd }).click();
    await toast(owner.page, jaMember.security.passkeyAdded);
    const rule = owner.page.getByRole('switch', { name: jaMember.security.staffSwitch });
    // The switch shows what the server says: it turns on once the call has answered.
    await rule.click();
    await toast(owner.page, jaMember.security.staffOn);
    await expect.poll(() => rule.isChecked()).toBe(true);
    await photograph(owner.page, 'security-owner.png', { fullPage: true });

    try {
      const { context, page } = await newPhone();
      await passwordStep(page, club.forced);
      await page.waitForURL('**/security/setup');
      await page.getByText(jaMember.security.setupLead).waitFor();
      // Nothing else opens until a factor exists.
      await page.goto('/mypage');
      await page.waitForURL('**/security/setup');
      await page.getByRole('button', { name: jaMember.security.totpStart }).click();
      const secret = (await page.getByTestId('totp-secret').innerText()).trim();
      await photograph(page, 'security-setup.png', { fullPage: true });
      await page.getByLabel(jaMember.security.totpCode).fill(code(secret));
      await page.getByRole('button', { name: jaMember.security.totpConfirm }).click();
      await page.getByRole('button', { name: jaMember.security.continue }).click();
      await page.waitForURL('**/mypage');
      await page.getByRole('heading', { name: jaMember.mypage.staffTitle }).waitFor();
      await context.close();
    } finally {
      await rule.click();
      await toast(owner.page, jaMember.security.staffOff);
      await owner.context.close();
    }
  });
});

/** The TOTP code of now, or `ahead` seconds from now. */
function code(secret: string, ahead = 0): string {
  return generateSync({ secret, epoch: Math.floor(Date.now() / 1000) + ahead });
}

/** A code that is none of the codes now accepted. */
function wrongCode(secret: string): string {
  const accepted = [-30, 0, 30].map((ahead) => code(secret, ahead));
  return ['000000', '111111', '222222', '333333'].find((candidate) => !accepted.includes(candidate))!;
}
