import type { Browser, BrowserContext, Locator, Page, ViewportSize } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { ja, jaMember } from '@enishi/contract';
import { launchBrowser, logIn, newPhone, phone } from './browser.js';
import { recordSecrets } from './secrets.js';
import type { Person } from './users.js';

/** A person the admin tests create for themselves (the shared server also serves the other test files). */
export interface Account {
  id: string;
  password: string;
  name: string;
}

let counter = 0;
/** A short tag no other test and no earlier run on this server uses: for names, login IDs and titles. */
export function uniqueTag(): string {
  counter += 1;
  return `${Date.now().toString(36)}${counter}`;
}

/** Logs in through the login screen with any account, and waits for the page after login. */
export async function logInAs(page: Page, account: Pick<Account, 'id' | 'password'>): Promise<void> {
  await page.goto('/login');
  await page.getByLabel(ja.login.id, { exact: true }).fill(account.id);
  await page.getByLabel(ja.login.password, { exact: true }).fill(account.password);
  await page.getByRole('button', { name: ja.login.submit, exact: true }).click();
  await page.waitForURL('**/mypage');
}

/** The session id the logged-in app keeps in localStorage ('enishi' → session.session). */
export async function sessionId(page: Page): Promise<string> {
  const ssid = await page.evaluate(() => {
    const stored = JSON.parse(localStorage.getItem('enishi') ?? '{}') as { session?: { session?: string } };
    return stored.session?.session ?? '';
  });
  if (!ssid) throw new Error('no session in localStorage');
  return ssid;
}

/**
 * Registers a member with the staff session of `staffPage` (POST /api/adduser), for tests whose subject is
 * not the member form itself. Returns the new uid.
 */
export async function createMember(
  staffPage: Page,
  member: Account & { role: 101 | 201; rank?: number; name_kana?: string },
): Promise<number> {
  recordSecrets([{ field: 'password', value: member.password }]);
  const reply = await staffPage.request.post('/api/adduser', {
    data: {
      ssid: await sessionId(staffPage),
      id: member.id,
      name: member.name,
      ...(member.name_kana ? { name_kana: member.name_kana } : {}),
      pass: member.password,
      rank: member.rank ?? 0,
      role: member.role,
      introducer: '',
    },
  });
  if (!reply.ok()) throw new Error(`adduser ${member.id}: ${reply.status()} ${await reply.text()}`);
  const body = (await reply.json()) as { rows: { uid: number }[] };
  const uid = body.rows[0]?.uid;
  if (!uid) throw new Error(`adduser ${member.id}: no uid`);
  return uid;
}

/** A toast with exactly this text (toasts live in the app's status region). */
export const toast = (page: Page, text: string): Locator =>
  page.getByRole('status').getByText(text, { exact: true });

/** Clicks the named link of the home menu. */
export async function openFromHomeMenu(page: Page, item: string): Promise<void> {
  await page.goto('/');
  await page.getByRole('navigation', { name: ja.home.menuLabel }).getByRole('link', { name: item }).click();
}

/** Searches a member/staff list (or a group pick screen) by name or ID. */
export async function searchUsers(page: Page, keyword: string): Promise<void> {
  await page.getByRole('searchbox', { name: jaMember.members.searchLabel }).fill(keyword);
  await page.getByRole('button', { name: jaMember.members.search, exact: true }).click();
}

/** The count line of a user list, e.g. 該当人数1名 (the 該当人数 part is for screen readers). */
export const userCount = (page: Page, count: number): Locator =>
  page.getByText(`${jaMember.members.countLabel}${jaMember.members.count(count)}`, { exact: true });

/** A solid-colour picture as a file for setInputFiles. */
export async function picture(
  name: string,
  width: number,
  height: number,
  background: { r: number; g: number; b: number },
): Promise<{ name: string; mimeType: string; buffer: Buffer }> {
  const image = sharp({ create: { width, height, channels: 3, background } });
  if (name.endsWith('.png')) return { name, mimeType: 'image/png', buffer: await image.png().toBuffer() };
  return { name, mimeType: 'image/jpeg', buffer: await image.jpeg().toBuffer() };
}

/** True once an <img> has loaded real pixels (scrolled into view first, as lazy images wait for that). */
export async function imageLoaded(image: Locator): Promise<boolean> {
  await image.scrollIntoViewIfNeeded();
  return image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0);
}

export const escapeRegExp = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

export const isHome = (url: URL): boolean => url.pathname === '/';

/**
 * For a test file: one browser for the file, and `loggedIn`, a fresh phone logged in as a seeded person or
 * an account a test made. Every context a test opens is closed after it, pass or fail.
 */
export function phonesPerTest(): { loggedIn(who: Person | Account): Promise<Page> } {
  let browser: Browser;
  const contexts: BrowserContext[] = [];
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });
  afterEach(async () => {
    await Promise.all(contexts.splice(0).map((context) => context.close()));
  });
  return {
    async loggedIn(who) {
      const context = await newPhone(browser);
      contexts.push(context);
      const page = await context.newPage();
      if (typeof who === 'string') await logIn(page, who);
      else await logInAs(page, who);
      return page;
    },
  };
}

/**
 * For a test file: one browser, and one page per person and viewport kept for the whole file, logged in once
 * ('public': not logged in). Screens are then opened on it inside the app (lib/screens.ts), as a member moves
 * between screens, not with a new login and page load each time (a page load costs about five times a move
 * inside the app). `watch` sees each new page before anything loads in it (a console listener, say).
 */
export function pagesPerFile(watch?: (page: Page) => void): {
  pageOf(who: Person | 'public', viewport?: ViewportSize): Promise<Page>;
} {
  let browser: Browser;
  const kept = new Map<string, Promise<Page>>();
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    kept.clear();
    // Closing the browser closes the kept pages' contexts.
    await browser?.close();
  });
  return {
    pageOf(who, viewport = phone) {
      const key = `${who} ${viewport.width}x${viewport.height}`;
      let page = kept.get(key);
      if (!page) {
        page = (async () => {
          const fresh = await (await newPhone(browser, viewport)).newPage();
          watch?.(fresh);
          if (who !== 'public') await logIn(fresh, who);
          return fresh;
        })();
        kept.set(key, page);
      }
      return page;
    },
  };
}
