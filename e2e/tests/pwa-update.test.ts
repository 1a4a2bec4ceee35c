import { appendFileSync, cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ja } from '@enishi/contract';
import { type BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { freePort } from '../../server/src/test/process.js';
import { controlledPage } from '../lib/pwa.js';
import { repoRoot, serverEnv, startServer, type RunningServer } from '../lib/server.js';
import { launchInstalledApp } from '../lib/installed-app.js';

/*
 * product.md §2: a new version of the app is offered after the next navigation, and yes activates it and starts
 * again at home. The server serves a copy of the build whose service worker the test changes, as a deploy would.
 */

const web = mkdtempSync(join(tmpdir(), 'enishi-web-'));
let server: RunningServer;
let context: BrowserContext;

beforeAll(async () => {
  cpSync(join(repoRoot, 'web/dist'), web, { recursive: true });
  server = await startServer(serverEnv(await freePort(), { WEB_DIST: web }));
  context = await launchInstalledApp('pwa-update', { baseURL: server.baseURL });
});
afterAll(async () => {
  await context?.close();
  await server?.stop();
  rmSync(web, { recursive: true, force: true });
});

test('a new version is offered after the next navigation; yes activates it and starts again at home', async () => {
  const page = await controlledPage(context);
  const first = await page.evaluate(
    async () => (await navigator.serviceWorker.getRegistration())?.active?.scriptURL,
  );
  expect(first).toMatch(/\/sw\.js$/);

  // A deploy: the worker's bytes change. The app looks for a new version every second while it is visible.
  appendFileSync(join(web, 'sw.js'), '\n// the next version\n');
  await page.waitForFunction(async () => !!(await navigator.serviceWorker.getRegistration())?.waiting);
  // Nothing is asked in the middle of a screen: the offer comes with the next navigation (the page learns of the
  // waiting version within a second, so it may be the one after).
  expect(await page.getByRole('alertdialog').count()).toBe(0);
  await page.evaluate(() => Object.assign(window, { beforeUpdate: true }));
  const offer = page.getByRole('alertdialog', { name: ja.app.updatePrompt });
  await page.getByRole('link', { name: ja.enter.login }).click();
  // The history is now /enter, /login: going back and forth never leaves the app. (Going back before the click's
  // navigation has committed would leave it for the blank page before /enter; with no page left on the old
  // version, the browser activates the new one without asking, as it should.)
  await page.waitForURL('**/login');
  for (let step = 0; step < 10 && !(await offer.isVisible()); step++) {
    await (step % 2 === 0 ? page.goBack() : page.goForward());
    await offer.waitFor({ timeout: 1000 }).catch(() => undefined);
  }
  await offer.getByRole('button', { name: ja.app.yes }).click();

  // The page starts again (a fresh window) at home, which sends a visitor to /enter, under the new worker.
  await page.waitForFunction(() => !('beforeUpdate' in window) && location.pathname === '/enter');
  await page.getByRole('link', { name: ja.enter.login }).waitFor();
  expect(
    await page.evaluate(async () => {
      const registration = await navigator.serviceWorker.getRegistration();
      return {
        waiting: registration?.waiting ?? null,
        controlled: navigator.serviceWorker.controller !== null,
      };
    }),
  ).toEqual({ waiting: null, controlled: true });
  await page.close();
});
