// The JavaScript a logged-in route downloads (issue 29): a man's home on a phone and the staff desk with a talk
// open at 1440 px, as Chromium requests it from the real built server, gzipped (-9) like the other rows.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { chromium, type Browser, type Page } from 'playwright-core';
import { ja } from '@enishi/contract';
import { chromiumArgs, chromiumPath, phone } from '../e2e/lib/chromium.js';
import { repoRoot, startEnishi } from './lib.js';

const man = { id: 'bench-js-man', password: 'Bench-pass.1', name: '計測太郎', role: 101 };
const staff = { id: 'bench-js-staff', password: 'Bench-pass.1', name: '計測花子', role: 3 };
const desk = { width: 1440, height: 900 };

export interface RouteJs {
  files: number;
  raw: number;
  gzip: number;
}

/** A fresh context (empty cache) logged in through the login screen, then a page of its own. */
async function loggedIn(
  browser: Browser,
  baseURL: string,
  who: { id: string; password: string },
  viewport: { width: number; height: number },
): Promise<Page> {
  const login = await browser.newContext({ baseURL, viewport, serviceWorkers: 'block' });
  const page = await login.newPage();
  await page.goto('/login');
  await page.getByLabel(ja.login.id, { exact: true }).fill(who.id);
  await page.getByLabel(ja.login.password, { exact: true }).fill(who.password);
  await page.getByRole('button', { name: ja.login.submit, exact: true }).click();
  await page.waitForURL('**/mypage', { timeout: 30_000 });
  const storageState = await login.storageState();
  await login.close();
  const context = await browser.newContext({ baseURL, viewport, serviceWorkers: 'block', storageState });
  return context.newPage();
}

/** The scripts a page requests until the network is idle, sized from the build. */
async function scriptsOf(page: Page, path: string): Promise<RouteJs> {
  const urls = new Set<string>();
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (request.resourceType() === 'script' && url.pathname.startsWith('/assets/')) urls.add(url.pathname);
  });
  await page.goto(path);
  await page.waitForLoadState('networkidle', { timeout: 30_000 });
  let raw = 0;
  let gzip = 0;
  for (const url of urls) {
    const bytes = readFileSync(join(repoRoot, 'web/dist', url));
    raw += bytes.length;
    gzip += gzipSync(bytes, { level: 9 }).length;
  }
  await page.context().close();
  return { files: urls.size, raw, gzip };
}

export async function routeJsFigures(): Promise<{ manHome: RouteJs; staffDesk: RouteJs }> {
  const enishi = await startEnishi([man, staff]);
  const browser = await chromium.launch({ executablePath: chromiumPath, args: chromiumArgs });
  try {
    const manHome = await scriptsOf(await loggedIn(browser, enishi.url, man, phone), '/');
    // The man's talk with the staff (opened for him on first visit), as the desk shows it.
    const manPage = await loggedIn(browser, enishi.url, man, phone);
    await manPage.goto('/talkrooms/staff');
    await manPage.waitForURL(/\/talk\/staff\/\d+$/, { timeout: 30_000 });
    const id = /\/talk\/staff\/(\d+)$/.exec(manPage.url())?.[1];
    await manPage.context().close();
    const staffDesk = await scriptsOf(await loggedIn(browser, enishi.url, staff, desk), `/talk/${id}`);
    return { manHome, staffDesk };
  } finally {
    await browser.close();
    await enishi.stop();
  }
}
