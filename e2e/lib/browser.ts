import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { inject } from './suite.js';
import { ja } from '@enishi/contract';
import { chromiumArgs, chromiumBuildPath, phone, type ChromiumBuild } from './chromium.js';
import { watchSecrets } from './secrets.js';
import { people, type Person } from './users.js';

export { chromiumArgs, headlessShellPath, phone } from './chromium.js';

/** Debian's headless Chromium; `full` the whole browser, for what the headless one lacks (lib/chromium.ts). */
export async function launchBrowser(
  extraArgs: string[] = [],
  build: ChromiumBuild = 'shell',
): Promise<Browser> {
  return chromium.launch({
    executablePath: chromiumBuildPath(build),
    // Playwright gives every launch a fresh, empty profile directory of its own.
    args: [...chromiumArgs, ...extraArgs],
  });
}

/** A fresh phone-sized context (its own storage), like one member's iPhone. */
export async function newPhone(browser: Browser, viewport = phone): Promise<BrowserContext> {
  const context = await browser.newContext({
    baseURL: inject('baseURL'),
    viewport,
    locale: 'ja-JP',
    timezoneId: 'Asia/Tokyo',
    serviceWorkers: 'block',
  });
  // tsx may wrap functions passed to page.evaluate with __name.
  await context.addInitScript('globalThis.__name = f => f');
  watchSecrets(context);
  return context;
}

/** Logs in through the login screen, as a person would, and waits for the page after login. */
export async function logIn(page: Page, who: Person): Promise<void> {
  const person = people[who];
  await page.goto('/login');
  await page.getByLabel(ja.login.id, { exact: true }).fill(person.id);
  await page.getByLabel(ja.login.password, { exact: true }).fill(person.password);
  await page.getByRole('button', { name: ja.login.submit, exact: true }).click();
  await page.waitForURL('**/mypage', { timeout: 15_000 }).catch(async (error: unknown) => {
    // Name what the login screen said instead (a toast), not only that /mypage never came.
    const said = await page.getByRole('status').allInnerTexts();
    throw new Error(
      `${person.id} did not reach /mypage; the screen said: ${said.join(' / ') || '(nothing)'}`,
      {
        cause: error,
      },
    );
  });
}
