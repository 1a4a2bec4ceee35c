import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { ja, jaIntro } from '@enishi/contract';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { inject } from '../lib/suite.js';
import { launchBrowser, newPhone, phone } from '../lib/browser.js';
import { repoRoot } from '../lib/server.js';
import { people } from '../lib/users.js';
import { screenshots } from '../lib/photograph.js';

/*
 * product.md §2.7: the public pages are prerendered at build time, paint their words before any script runs,
 * load at most 120 KB of gzipped JavaScript first, and the app takes over their HTML without drawing it anew.
 */

const dist = join(repoRoot, 'web/dist');
/** The budget for the JavaScript a public page loads at once: its scripts and modulepreloads, gzipped. */
const BUDGET_BYTES = 120_000;

const pages = {
  '/enter': [ja.enter.title, ja.enter.tagline, ja.enter.male, ja.enter.female, ja.enter.login],
  '/login': [ja.login.title, ja.login.lead, ja.login.note, ja.login.submit],
  '/intro/male': [jaIntro.maleTitle, jaIntro.formTitle, jaIntro.submit],
  '/intro/female': [jaIntro.femaleTitle, jaIntro.formTitle, jaIntro.submit],
} as const;
type PagePath = keyof typeof pages;
const paths = Object.keys(pages) as PagePath[];

const builtHtml = (path: PagePath) => readFileSync(join(dist, `${path.slice(1)}.html`), 'utf8');

/** The text inside #root, tags removed: what a reader sees before any script runs. */
function rootText(html: string): string {
  const root = /<div id="root">([\s\S]*)<\/div>\s*<script type="application\/json"/.exec(html)?.[1] ?? '';
  return root
    .replace(/<[^>]+>/g, '')
    .replace(/&amp;/g, '&')
    .replace(/&quot;/g, '"');
}

/** Gzipped bytes of every script the page loads at once (module scripts and modulepreloads). */
function eagerScripts(html: string): { file: string; gzip: number }[] {
  const urls = [
    ...html.matchAll(/<script type="module"[^>]*\bsrc="([^"]+)"/g),
    ...html.matchAll(/<link rel="modulepreload"[^>]*\bhref="([^"]+)"/g),
  ].map((match) => match[1]!);
  return [...new Set(urls)].map((url) => ({
    file: url,
    gzip: gzipSync(readFileSync(join(dist, url))).length,
  }));
}

/** Holds the app's main script back until the returned function is called: the page as painted from HTML. */
async function holdAppScript(page: Page): Promise<() => void> {
  let release = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route(/\/assets\/index-[^/]+\.js$/, async (route) => {
    await held;
    await route.continue();
  });
  return release;
}

describe('the built public pages', () => {
  test.each(paths)('%s holds its Japanese words in the HTML itself', (path) => {
    const text = rootText(builtHtml(path));
    for (const words of pages[path]) expect(text).toContain(words);
  });

  test.each(paths)('%s loads at most 120 KB of gzipped JavaScript at once', (path) => {
    const scripts = eagerScripts(builtHtml(path));
    const total = scripts.reduce((sum, script) => sum + script.gzip, 0);
    console.log(`${path}: ${(total / 1000).toFixed(1)} kB gzip in ${scripts.length} files`);
    expect(scripts.length).toBeGreaterThan(1);
    expect(total).toBeLessThanOrEqual(BUDGET_BYTES);
  });
});

describe('in the browser', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });

  test.each(paths)('%s shows its words with JavaScript turned off', async (path) => {
    const context = await browser.newContext({
      baseURL: inject('baseURL'),
      viewport: phone,
      javaScriptEnabled: false,
    });
    const page = await context.newPage();
    await page.goto(path);
    await page.getByRole('heading', { level: 1, name: pages[path][0] }).waitFor();
    for (const words of pages[path].slice(1)) expect(await page.getByText(words).count()).toBeGreaterThan(0);
    await context.close();
  });

  test.each(paths)('%s is taken over by the app without being drawn anew', async (path) => {
    const context = await newPhone(browser);
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') errors.push(message.text());
    });
    page.on('pageerror', (error) => errors.push(error.message));
    // The app's script is held back until the painted page has been marked.
    const release = await holdAppScript(page);
    await page.goto(path, { waitUntil: 'commit' });
    const heading = page.getByRole('heading', { level: 1, name: pages[path][0] });
    await heading.waitFor();
    await heading.evaluate((element) => element.setAttribute('data-painted', ''));
    release();
    await page.waitForFunction(() =>
      Object.keys(document.querySelector('h1') ?? {}).some((key) => key.startsWith('__reactFiber')),
    );
    // The node painted from HTML is the one the app now runs: hydrated, not replaced.
    expect(await heading.getAttribute('data-painted')).toBe('');
    expect(errors).toEqual([]);
    await context.close();
  });

  test.each(paths)(
    '%s looks the same painted from HTML and once the app runs, at 375 and 1440 px',
    async (path) => {
      const name = path.slice(1).replace('/', '-');
      for (const viewport of [phone, { width: 1440, height: 900 }]) {
        const shots: Buffer[] = [];
        for (const javaScriptEnabled of [false, true]) {
          const context = await browser.newContext({
            baseURL: inject('baseURL'),
            viewport,
            javaScriptEnabled,
          });
          const page = await context.newPage();
          await page.goto(path);
          if (javaScriptEnabled) {
            await page.waitForFunction(() =>
              Object.keys(document.querySelector('h1') ?? {}).some((key) => key.startsWith('__reactFiber')),
            );
          }
          const file = join(screenshots, `${name}-${viewport.width}${javaScriptEnabled ? '' : '-html'}.png`);
          shots.push(await page.screenshot({ path: file, fullPage: true }));
          await context.close();
        }
        // Not one pixel moves when the app takes over the painted page.
        expect(shots[1]!.equals(shots[0]!)).toBe(true);
      }
    },
  );

  /** Each prerendered form: its button, what a person types into it, and what they see once it is sent. */
  const forms = {
    '/login': {
      submit: ja.login.submit,
      fill: async (page: Page) => {
        await page.getByLabel(ja.login.id, { exact: true }).fill(people.man.id);
        await page.getByLabel(ja.login.password, { exact: true }).fill(people.man.password);
      },
      done: (page: Page) => page.waitForURL('**/mypage'),
    },
    '/intro/male': {
      submit: jaIntro.submit,
      fill: async (page: Page) => {
        await page.getByLabel(jaIntro.name).fill('早川 一郎');
        await page.getByLabel(jaIntro.age).fill('38');
        await page.getByLabel(jaIntro.email).fill('ichiro@example.jp');
        await page.getByLabel(jaIntro.tel).fill('090-2345-6789');
      },
      done: (page: Page) => page.getByRole('heading', { name: jaIntro.sent }).waitFor(),
    },
  } as const;

  test.each(Object.keys(forms) as (keyof typeof forms)[])(
    'the form of %s keeps what was typed before the app ran, and sends it once the app runs',
    async (path) => {
      const form = forms[path];
      const context = await newPhone(browser);
      const page = await context.newPage();
      const release = await holdAppScript(page);
      await page.goto(path, { waitUntil: 'commit' });
      const button = page.getByRole('button', { name: form.submit, exact: true });
      await button.waitFor();
      // Painted but not yet working: typing is kept, and a tap now must not send the form by itself.
      await form.fill(page);
      expect(await button.isDisabled()).toBe(true);
      release();
      await button.click(); // waits until the app has taken the page over
      await form.done(page);
      // A browser that sent the form anyway (no script at all) is taken back to the page, not to a JSON 404.
      const sent = await page.request.post(path, { form: { id: 'x' }, maxRedirects: 0 });
      expect(sent.status()).toBe(303);
      expect(sent.headers()['location']).toBe(path);
      await context.close();
    },
  );

  test('the hydrated login form answers at once', async () => {
    const context = await newPhone(browser);
    const page = await context.newPage();
    await page.goto('/login');
    await page.getByRole('button', { name: ja.login.submit, exact: true }).click();
    await page.getByRole('status').getByText(ja.errors.loginMissing).waitFor();
    expect(new URL(page.url()).pathname).toBe('/login');
    await context.close();
  });
});
