import { afterAll, beforeAll, expect, test } from 'vitest';
import { type BrowserContext } from 'playwright-core';
import { ja, jaIntro } from '@enishi/contract';
import { controlledPage } from '../lib/pwa.js';
import { launchInstalledApp } from '../lib/installed-app.js';

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
