import { afterAll, beforeAll, expect, test } from 'vitest';
import { type BrowserContext } from 'playwright-core';
import { ja, jaIntro } from '@enishi/contract';
import { controlledPage } from '../lib/pwa.js';
import { launchInstalledApp } from '../lib/installed-app.js';
import { logIn } from '../lib/browser.js';

let context: BrowserContext;
beforeAll(async () => {
  // A persistent profile with service workers allowed, like a phone that added the app to its home screen.
  context = await launchInstalledApp('pwa');
});
afterAll(async () => {
  await context?.close();
});

test('the app is installable: a Japanese standalone manifest with icons', async () => {
  const reply = await context.request.get('/manifest.webmanifest');
  expect(reply.status()).toBe(200);
  const manifest = (await reply.json()) as Record<string, unknown>;
  expect(manifest).toMatchObject({
    name: ja.app.name,
    short_name: ja.app.shortName,
    display: 'standalone',
    lang: 'ja',
  });
  const icons = manifest.icons as { src: string; sizes: string }[];
  expect(icons.map((icon) => icon.sizes)).toEqual(expect.arrayContaining(['192x192', '512x512']));
  for (const icon of icons) {
    const image = await context.request.get(`/${icon.src.replace(/^\//, '')}`);
    expect(image.headers()['content-type']).toBe('image/png');
  }
});

test('the service worker caches the app shell, so the app opens offline', async () => {
  const page = await controlledPage(context);
  await context.setOffline(true);
  await page.goto('/intro/male');
  await page.getByRole('heading', { name: jaIntro.maleTitle }).waitFor();
  // The worker's precache answers a public page with its prerendered HTML, not the empty app shell.
  expect(await page.locator('#hydration-data').count()).toBe(1);
  await context.setOffline(false);
  await page.close();
});

test("the member area's HTML links no manifest: the app links it once the talk has drawn, and the app is installable there", async () => {
  // A profile of its own (Chrome does not install from an incognito context), logged in as the man; no
  // service worker, whose kept screen would answer the talk's address instead of the server.
  const phone = await launchInstalledApp('pwa-manifest', { serviceWorkers: 'block' });
  try {
    const page = await phone.newPage();
    // When the manifest's link comes: whether the screen then showed the talk, and anything still loading.
    await page.addInitScript(() => {
      new MutationObserver((_, observer) => {
        if (!document.querySelector('link[rel="manifest"]')) return;
        observer.disconnect();
        const root = document.getElementById('root');
        (window as { linkedOver?: unknown }).linkedOver = {
          talk: !!root?.querySelector('[role="log"]'),
          loading: !!root?.querySelector('[aria-busy="true"], .app-loading, .spinner'),
        };
      }).observe(document, { childList: true, subtree: true });
    });
    await logIn(page, 'man');
    await page.goto('/talkrooms/staff');
    await page.waitForURL(/\/talk\/staff\/\d+$/);
    const response = await page.goto(page.url());
    expect(await response!.text()).not.toContain('rel="manifest"');
    await page.waitForFunction(() => (window as { linkedOver?: unknown }).linkedOver);
    expect(await page.evaluate(() => (window as { linkedOver?: unknown }).linkedOver)).toEqual({
      talk: true,
      loading: false,
    });
    const devtools = await page.context().newCDPSession(page);
    const { url, errors } = await devtools.send('Page.getAppManifest');
    expect(new URL(url).pathname).toBe('/manifest.webmanifest');
    expect(errors).toEqual([]);
    const { installabilityErrors } = await devtools.send('Page.getInstallabilityErrors');
    expect(installabilityErrors).toEqual([]);
  } finally {
    await phone.close();
  }
});
