import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { inject } from './suite.js';
import { ja } from '@enishi/contract';
import { chromiumArgs, chromiumPath, phone } from './chromium.js';
import { watchSecrets } from './secrets.js';
import { people, type Person } from './users.js';

export { chromiumArgs, chromiumPath, phone } from './chromium.js';

/*
 * One Chromium per worker process, shared by the files the worker runs one after another (isolate: false in
 * vitest.config.ts): a launch costs about 2 CPU s on a slow 2-core machine, and the suite's files launched some
 * thirty. A file shares nothing with another through it: its contexts (cookies, storage, cache) are its own,
 * and closing its browser closes them, not the shared one. A browser that died is launched again. Launches
 * with flags of their own (extraArgs) get a browser of their own.
 */
let shared: Promise<Browser> | undefined;

export async function launchBrowser(extraArgs: string[] = []): Promise<Browser> {
  const launch = () =>
    chromium.launch({
      executablePath: chromiumPath,
      // Playwright gives every launch a fresh, empty profile directory of its own.
      args: [...chromiumArgs, ...extraArgs],
    });
  if (extraArgs.length > 0) return launch();
  let browser = await (shared ??= launch());
  if (!browser.isConnected()) browser = await (shared = launch());
  return forOneFile(browser);
}

/** The shared browser as one file sees it: `close` closes the contexts the file opened, and nothing else. */
function forOneFile(browser: Browser): Browser {
  const opened = new Set<BrowserContext>();
  const keep = (context: BrowserContext) => {
    opened.add(context);
    context.on('close', () => opened.delete(context));
    return context;
  };
  const own = {
    newContext: async (...args: Parameters<Browser['newContext']>) => keep(await browser.newContext(...args)),
    newPage: async (...args: Parameters<Browser['newPage']>) => {
      const page = await browser.newPage(...args);
      keep(page.context());
      return page;
    },
    close: async () => {
      await Promise.all([...opened].map((context) => context.close()));
    },
  };
  return new Proxy(browser, {
    get(target, key) {
      if (key in own) return own[key as keyof typeof own];
      const value: unknown = Reflect.get(target, key, target);
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
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
