// Lighthouse (default simulated throttling) next to a hello-world React page built with the same Vite and
// served by the same Fastify, in the same run and the same Chromium: the public pages and, logged in (issue
// 29), a man's home and his talk on the mobile preset and the staff desk with a talk on the desktop preset.
import { fork } from 'node:child_process';
import { once } from 'node:events';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { launch } from 'chrome-launcher';
import lighthouse, { type Config } from 'lighthouse';
import desktopConfig from 'lighthouse/core/config/desktop-config.js';
import { chromium, type Page } from 'playwright-core';
import sharp from 'sharp';
import { ja } from '@enishi/contract';
import { chromiumArgs, chromiumPath } from '../e2e/lib/chromium.js';
import { freePort } from '../server/src/test/process.js';
import { printLcpGraph } from './lcp-graph.js';
import { buildHelloWorld, median, quietLoad, startEnishi, stopChild } from './lib.js';

type Figures = { performance: number; lcp: number; tbt: number; cls: number; fcp: number };

async function startHelloSite(dir: string): Promise<{ url: string; stop: () => Promise<void> }> {
  const port = await freePort();
  const child = fork(new URL('./static-site.ts', import.meta.url), {
    env: { ...process.env, PORT: String(port), SITE_DIR: dir },
    execArgv: ['--import', 'tsx'],
    stdio: 'ignore',
  });
  await once(child, 'message');
  return { url: `http://127.0.0.1:${port}`, stop: () => stopChild(child) };
}

/** One Lighthouse run; a run whose trace failed (NO_NAVSTART and the like, on a busy machine) is tried again. */
async function audit(url: string, port: number, config?: Config, graph = false, tries = 3): Promise<Figures> {
  try {
    return await auditOnce(url, port, config, graph);
  } catch (error) {
    if (tries <= 1) throw error;
    return audit(url, port, config, graph, tries - 1);
  }
}

/**
 * Lighthouse's own storage reset clears the service worker, Cache Storage and the HTTP cache before each
 * run but keeps localStorage, where the app keeps its session (product.md §9): a logged-in page loads cold.
 */
async function auditOnce(url: string, port: number, config?: Config, graph = false): Promise<Figures> {
  const result = await lighthouse(
    url,
    { port, output: 'json', logLevel: 'error', onlyCategories: ['performance'] },
    config,
  );
  if (!result) throw new Error(`Lighthouse gave no result for ${url}`);
  const { lhr } = result;
  // BENCH_LIGHTHOUSE_REPORTS=<folder>: each run's whole report is kept there, to see what a figure is made of.
  const reports = process.env.BENCH_LIGHTHOUSE_REPORTS;
  if (reports) {
    const name = `${new URL(url).pathname.replace(/\W+/g, '_')}-${Date.now()}.json`;
    writeFileSync(join(reports, name), JSON.stringify(lhr));
  }
  if (lhr.runtimeError) throw new Error(`${url}: ${lhr.runtimeError.message}`);
  // A session that was lost would measure the login screen instead: the page must be the one asked for.
  const shown = new URL(lhr.finalDisplayedUrl).pathname;
  if (shown !== new URL(url).pathname) throw new Error(`${url}: Lighthouse ended on ${shown}`);
  if (graph) await printLcpGraph(url, result);
  const metric = (id: string) => lhr.audits[id]?.numericValue ?? NaN;
  return {
    performance: Math.round((lhr.categories.performance?.score ?? 0) * 100),
    fcp: metric('first-contentful-paint'),
    lcp: metric('largest-contentful-paint'),
    tbt: metric('total-blocking-time'),
    cls: metric('cumulative-layout-shift'),
  };
}

export const man = { id: 'bench-lh-man', password: 'Bench-pass.1', name: '計測太郎', role: 101 };
export const staff = { id: 'bench-lh-staff', password: 'Bench-pass.1', name: '計測花子', role: 3 };

/** A call to the api as `staff`. */
type StaffCall = (name: string, body: object) => Promise<unknown>;

/** Logs `staff` in once; each call then carries that session. */
export async function staffCaller(base: string): Promise<StaffCall> {
  const post = async (name: string, body: unknown) => {
    const reply = await fetch(`${base}/api/${name}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    if (!reply.ok) throw new Error(`${name}: ${reply.status} ${await reply.text()}`);
    return (await reply.json()) as Record<string, unknown>;
  };
  const { session } = await post('login', { id: staff.id, password: staff.password });
  return (name, body) => post(name, { ssid: session, ...body });
}

/** The men's first banner, as staff add it: a 1200 × 340 photograph-like JPEG (product.md §2.7). */
async function addBanner(call: StaffCall): Promise<void> {
  const photo = await sharp({
    create: {
      width: 1200,
      height: 340,
      channels: 3,
      background: '#8a7a66',
      noise: { type: 'gaussian', mean: 140, sigma: 40 },
    },
  })
    .blur(2)
    .jpeg({ quality: 80 })
    .toBuffer();
  await call('banner/add', {
    url: 'https://example.com/',
    type: 1,
    image: `data:image/jpeg;base64,${photo.toString('base64')}`,
  });
}

/**
 * The man's talk with the desk as a member opens it, not empty: a screenful of the desk's messages, short and
 * long (sent as a bulk send to him alone, which lands in his desk talk: product.md §12.7).
 */
export async function addDeskMessages(call: StaffCall, uid: number): Promise<void> {
  const lines = [
    'こんにちは。担当の計測です。',
    '今週末のお見合いの件で、お相手の方から日程のご希望をいただきました。',
    '土曜の午後2時から、ホテルのラウンジでいかがでしょうか。ご都合をお聞かせください。',
    '当日は受付でお名前をお伝えいただければ、スタッフがご案内いたします。服装はいつも通りで大丈夫です。',
  ];
  for (let n = 0; n < 12; n++)
    await call('messages/send', { users: [uid], message: lines[n % lines.length] });
}

/** Logs `who` in through the login screen in the browser's own profile (where Lighthouse opens its tab). */
export async function logIn(page: Page, base: string, who: { id: string; password: string }): Promise<void> {
  await page.goto(`${base}/login`);
  await page.evaluate(() => localStorage.clear());
  await page.goto(`${base}/login`);
  await page.getByLabel(ja.login.id, { exact: true }).fill(who.id);
  await page.getByLabel(ja.login.password, { exact: true }).fill(who.password);
  await page.getByRole('button', { name: ja.login.submit, exact: true }).click();
  await page.waitForURL('**/mypage', { timeout: 30_000 });
}

/** Each page `runs` times (BENCH_LIGHTHOUSE_RUNS, 3 by default); the median and range of each figure. */
export async function benchLighthouse(runs = Number(process.env.BENCH_LIGHTHOUSE_RUNS ?? 3)): Promise<void> {
  const hello = await startHelloSite(buildHelloWorld());
  // BENCH_WEB_DIST=<a web/dist built from another commit> audits that build (its figures beside this run's hello-world).
  const enishi = await startEnishi(
    [man, staff],
    process.env.BENCH_WEB_DIST ? { WEB_DIST: process.env.BENCH_WEB_DIST } : {},
  );
  // The e2e suite's headless flags; Lighthouse sets the screen and throttling itself.
  const chrome = await launch({ chromePath: chromiumPath, chromeFlags: chromiumArgs });
  const browser = await chromium.connectOverCDP(`http://127.0.0.1:${chrome.port}`);
  const measure = async (name: string, url: string, config?: Config) => {
    // A run begun above load 1.0 does not count (issue 48): each page's runs wait for a quiet machine and say so.
    const load = await quietLoad(60);
    const figures: Figures[] = [];
    // BENCH_LIGHTHOUSE_GRAPH=1: the first run's simulated LCP, request by request (lcp-graph.ts).
    const graph = process.env.BENCH_LIGHTHOUSE_GRAPH === '1';
    for (let run = 0; run < runs; run++)
      figures.push(await audit(url, chrome.port, config, graph && run === 0));
    const of = (key: keyof Figures) => median(figures.map((figure) => figure[key]));
    const scores = figures.map((figure) => figure.performance);
    console.log(
      `${name.padEnd(30)} ${String(of('performance')).padStart(4)}  ${ms(of('fcp'))}  ${ms(of('lcp'))}  ${ms(of('tbt'))}  ${of('cls').toFixed(3)}   (${Math.min(...scores)}-${Math.max(...scores)})   load ${load} before`,
    );
  };
  const header = (preset: string) => {
    console.log(`\nLighthouse (${preset}, simulated throttling, median of ${runs})`);
    console.log(`${''.padEnd(30)} perf     FCP       LCP       TBT     CLS   (perf range)`);
  };
  try {
    const call = await staffCaller(enishi.url);
    await addBanner(call);
    await addDeskMessages(call, enishi.uids[man.id]!);
    header('mobile');
    // BENCH_LIGHTHOUSE_MEMBER=1: hello-world, a man's home and his talk only (when working on the talk).
    const memberOnly = process.env.BENCH_LIGHTHOUSE_MEMBER === '1';
    await measure('hello-world React', `${hello.url}/`);
    if (!memberOnly) {
      await measure('Enishi /enter', `${enishi.url}/enter`);
      await measure('Enishi /login', `${enishi.url}/login`);
    }
    // Logged in as the man: his home (one banner) and his talk with the desk (a screenful of messages).
    const page = await browser.contexts()[0]!.newPage();
    await logIn(page, enishi.url, man);
    await page.goto(`${enishi.url}/talkrooms/staff`);
    await page.waitForURL(/\/talk\/staff\/\d+$/, { timeout: 30_000 });
    const talk = new URL(page.url()).pathname;
    const talkId = /(\d+)$/.exec(talk)![1]!;
    await measure("Enishi a man's home /", `${enishi.url}/`);
    await measure("Enishi a man's talk", `${enishi.url}${talk}`);
    if (memberOnly) return;
    // The staff member at a desk: the same talk in the desk console.
    await logIn(page, enishi.url, staff);
    await page.close();
    header('desktop');
    await measure('hello-world React', `${hello.url}/`, desktopConfig);
    await measure('Enishi staff desk + talk', `${enishi.url}/talk/${talkId}`, desktopConfig);
  } finally {
    await browser.close();
    chrome.kill();
    await Promise.all([hello.stop(), enishi.stop()]);
  }
}

const ms = (value: number) => `${Math.round(value).toString().padStart(5)} ms`;
