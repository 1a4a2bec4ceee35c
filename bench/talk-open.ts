// Opening a man's talk in Chromium over the DevTools protocol at 4× CPU slowdown (issue 48):
// - cold: a Chromium trace of each open, counting forced layouts (Layout events with a script's stack: the
//   "Forced reflow" of DevTools) and the main thread's blocking time, and the reads of the talk's newest page;
// - warm: with the service worker in control and the talk kept on the device, the time from navigation start
//   until his home's menu and his talk's messages are in the document, online and offline, beside the same
//   open of a prerendered public page (/enter) in the same run.
// BENCH_WEB_DIST_BEFORE=<a web/dist built from another commit> measures that build too, in the same run.
// BENCH_TALK_PROFILE=<dir> keeps a CPU profile of each cold open there (open it in DevTools' Performance panel)
// and prints where the main thread's time went: the functions with the most time of their own, and the long
// tasks (a build made with `vite build --minify false` gives the functions their names).
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext, type CDPSession, type Page, type Request } from 'playwright-core';
import { chromiumArgs, chromiumPath } from '../e2e/lib/chromium.js';
import { addDeskMessages, logIn, man, staff, staffCaller } from './lighthouse.js';
import { median, quietLoad, startEnishi } from './lib.js';
import { longTaskLines, selfTimes, type Profile, type TraceEvent } from './main-thread.js';

const CPU_SLOWDOWN = 4;
const runs = Number(process.env.BENCH_TALK_RUNS ?? 5);

/** What is in the document when, in ms from navigation start (recorded in the page, before any of its scripts). */
const DRAWN_PROBES = {
  talk: '[role="log"] article[data-message-id]',
  home: 'nav.home-menu .menu-grid a',
  public: 'h1',
  offline: '.offline-notice:not([hidden])',
};

// As text: a function of this file would carry tsx's name helper, which the page does not have.
const RECORD_DRAWN = `(() => {
  const probes = ${JSON.stringify(DRAWN_PROBES)};
  const drawn = (window.__drawn = {});
  const look = () => {
    for (const [name, selector] of Object.entries(probes))
      if (drawn[name] === undefined && document.querySelector(selector)) drawn[name] = performance.now();
  };
  new MutationObserver(look).observe(document, { childList: true, subtree: true });
})();`;

async function throttled(context: BrowserContext, page: Page): Promise<CDPSession> {
  const cdp = await context.newCDPSession(page);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: CPU_SLOWDOWN });
  return cdp;
}

/** Reads of the newest page of talk `id` (`/api/messages` without `before`) while `run` goes. */
async function countNewestReads(page: Page, run: () => Promise<void>): Promise<number> {
  let reads = 0;
  const onRequest = (request: Request) => {
    if (!request.url().endsWith('/api/messages')) return;
    const body = JSON.parse(request.postData() ?? '{}') as { before?: number };
    if (body.before === undefined) reads++;
  };
  page.on('request', onRequest);
  try {
    await run();
    // The socket's catch-up and its `live` come after the page: wait until the network has been quiet.
    await page.waitForLoadState('networkidle');
    await page.waitForTimeout(1000);
  } finally {
    page.off('request', onRequest);
  }
  return reads;
}

type ColdFigures = { forced: number; forcedMs: number; layouts: number; blockingMs: number; reads: number };

let profiled = 0;

/** One cold open of the talk, traced: forced layouts, blocking time of the main thread, newest-page reads. */
async function coldOpen(context: BrowserContext, url: string): Promise<ColdFigures> {
  const page = await context.newPage();
  const cdp = await throttled(context, page);
  await cdp.send('Network.enable');
  await cdp.send('Network.setBypassServiceWorker', { bypass: true });
  const events: TraceEvent[] = [];
  cdp.on('Tracing.dataCollected', ({ value }) => events.push(...(value as unknown as TraceEvent[])));
  await cdp.send('Tracing.start', {
    categories:
      'devtools.timeline,disabled-by-default-devtools.timeline,disabled-by-default-devtools.timeline.stack,toplevel',
    transferMode: 'ReportEvents',
  });
  const profileDir = process.env.BENCH_TALK_PROFILE;
  if (profileDir) {
    await cdp.send('Profiler.enable');
    await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
    await cdp.send('Profiler.start');
  }
  const reads = await countNewestReads(page, async () => {
    await page.goto(url);
    await page.locator(DRAWN_PROBES.talk).first().waitFor({ timeout: 30_000 });
  });
  if (profileDir) {
    const { profile } = await cdp.send('Profiler.stop');
    mkdirSync(profileDir, { recursive: true });
    const file = join(profileDir, `talk-cold-${++profiled}.cpuprofile`);
    writeFileSync(file, JSON.stringify(profile));
    console.log(`${file}: the most time of their own\n${selfTimes(profile as Profile).join('\n')}`);
  }
  const complete = new Promise<void>((resolve) => cdp.once('Tracing.tracingComplete', () => resolve()));
  await cdp.send('Tracing.end');
  await complete;
  await page.close();
  return traceFigures(events, reads);
}

/** Trace events of a script running on the main thread. */
const SCRIPT_EVENTS = new Set([
  'FunctionCall',
  'EvaluateScript',
  'v8.evaluateModule',
  'v8.callFunction',
  'RunMicrotasks',
  'TimerFire',
  'FireAnimationFrame',
  'EventDispatch',
]);

/** The renderer's main thread: forced layouts (a script's stack) and tasks' time beyond 50 ms. */
function traceFigures(events: TraceEvent[], reads: number): ColdFigures {
  // The page's renderer main thread: of the renderers' main threads, the busiest.
  const mains = events.filter(
    (e) => e.ph === 'M' && e.name === 'thread_name' && e.args?.name === 'CrRendererMain',
  );
  const threadOf = (e: TraceEvent) => `${e.pid}:${e.tid}`;
  const counts = new Map<string, number>();
  for (const event of events) counts.set(threadOf(event), (counts.get(threadOf(event)) ?? 0) + 1);
  const main = mains.sort((a, b) => (counts.get(threadOf(b)) ?? 0) - (counts.get(threadOf(a)) ?? 0))[0];
  const onMain = events.filter((e) => main && threadOf(e) === threadOf(main));
  // A layout inside a script's run is one the script forced (DevTools' "Forced reflow"): the script read
  // a size while the page had changed, as a virtualizer reading offsetHeight while React commits.
  const scripts = onMain.filter((e) => e.ph === 'X' && SCRIPT_EVENTS.has(e.name));
  const layoutEvents = onMain.filter((e) => e.ph === 'X' && e.name === 'Layout');
  const inScript = (layout: TraceEvent) =>
    scripts.some(
      (script) => script.ts <= layout.ts && layout.ts + (layout.dur ?? 0) <= script.ts + (script.dur ?? 0),
    );
  const forcedLayouts = layoutEvents.filter(inScript);
  if (process.env.BENCH_TALK_DEBUG)
    for (const layout of forcedLayouts)
      console.log(
        `forced layout ${((layout.dur ?? 0) / 1000).toFixed(1)} ms:`,
        JSON.stringify(layout.args?.beginData?.stackTrace?.slice(0, 6)),
      );
  const forced = forcedLayouts.length;
  const forcedMs = forcedLayouts.reduce((sum, e) => sum + (e.dur ?? 0) / 1000, 0);
  const layouts = layoutEvents.length;
  const longTasks = onMain.filter((e) => e.ph === 'X' && e.name === 'RunTask' && (e.dur ?? 0) > 50_000);
  if (process.env.BENCH_TALK_PROFILE) console.log(longTaskLines(onMain, longTasks).join('\n'));
  const blockingMs = longTasks.reduce((sum, e) => sum + (e.dur! - 50_000) / 1000, 0);
  return { forced, forcedMs, layouts, blockingMs, reads };
}

/** One open of `url` at 4× slowdown: when each probe was first in the document, from navigation start. */
async function warmOpen(context: BrowserContext, url: string, wait: (keyof typeof DRAWN_PROBES)[]) {
  const page = await context.newPage();
  await page.addInitScript(RECORD_DRAWN);
  await throttled(context, page);
  await page.goto(url, { waitUntil: 'commit' });
  await page
    .waitForFunction(
      (names) =>
        names.every((name) => (window as unknown as { __drawn: Record<string, number> }).__drawn?.[name]),
      wait,
      { timeout: 30_000, polling: 50 },
    )
    .catch(async (error: unknown) => {
      const seen = await page.evaluate(() =>
        JSON.stringify((window as unknown as { __drawn: unknown }).__drawn),
      );
      throw new Error(`${url}: waited for ${wait.join(', ')}, saw ${seen} (${String(error)})`);
    });
  const drawn = await page.evaluate(() => (window as unknown as { __drawn: Record<string, number> }).__drawn);
  await page.close();
  return drawn;
}

const ms = (value: number) => `${Math.round(value).toString().padStart(5)} ms`;

/** A member's app as installed: a profile of its own, the service worker in control, his talk opened once. */
function installedApp(): Promise<BrowserContext> {
  return chromium.launchPersistentContext(mkdtempSync(join(tmpdir(), 'enishi-bench-talk-')), {
    executablePath: chromiumPath,
    args: chromiumArgs,
    viewport: { width: 375, height: 812 },
    locale: 'ja-JP',
  });
}

/** A visitor's: the worker in control of the public pages (a member's device would open /enter at home). */
async function installedVisitor(base: string): Promise<BrowserContext> {
  const context = await installedApp();
  const page = await context.newPage();
  await page.goto(`${base}/enter`);
  await page.evaluate(() => navigator.serviceWorker.ready.then(() => undefined));
  await page.reload();
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null);
  await page.close();
  return context;
}

/** Until the app has kept the screen of `path` (lib/keep-last-screen.ts). */
async function waitForLastScreen(page: Page, path: string): Promise<void> {
  const deadline = Date.now() + 30_000;
  const kept = () =>
    page.evaluate(async (at) => Boolean(await caches.match(at, { cacheName: 'enishi-last-screen' })), path);
  while (!(await kept())) {
    if (Date.now() > deadline) throw new Error(`the app kept no screen of ${path}`);
    await page.waitForTimeout(200);
  }
}

async function installedMan(base: string): Promise<{ context: BrowserContext; talk: string }> {
  const context = await installedApp();
  const page = await context.newPage();
  await logIn(page, base, man);
  await page.evaluate(() => navigator.serviceWorker.ready.then(() => undefined));
  await page.reload();
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null);
  await page.goto(`${base}/talkrooms/staff`);
  await page.waitForURL(/\/talk\/staff\/\d+$/, { timeout: 30_000 });
  const talk = new URL(page.url()).pathname;
  // Kept on the device half a second after the talk settles (hooks/use-keep-history.ts).
  await page.locator(DRAWN_PROBES.talk).first().waitFor();
  await page.waitForTimeout(1500);
  // His home and his talk as last drawn, kept for the next open (lib/keep-last-screen.ts), by a build that
  // keeps them (not one measured before they were).
  const keeps = (await (await page.request.get(`${base}/sw.js`)).text()).includes('enishi-last-screen');
  if (keeps) await waitForLastScreen(page, talk);
  await page.goto(`${base}/`);
  if (keeps) await waitForLastScreen(page, '/');
  await page.close();
  return { context, talk };
}

async function measureBuild(label: string, webDist?: string): Promise<void> {
  const enishi = await startEnishi([man, staff], webDist ? { WEB_DIST: webDist } : {});
  try {
    const call = await staffCaller(enishi.url);
    await addDeskMessages(call, enishi.uids[man.id]!);
    const { context, talk } = await installedMan(enishi.url);
    try {
      // Cold: the worker bypassed (as Lighthouse opens it).
      // A run begun above load 1.0 does not count (issue 48): each line's runs wait for a quiet machine and say so.
      let load = await quietLoad(60);
      const cold: ColdFigures[] = [];
      for (let run = 0; run < runs; run++) cold.push(await coldOpen(context, `${enishi.url}${talk}`));
      const of = (key: keyof ColdFigures) => median(cold.map((figures) => figures[key]));
      console.log(
        `${`${label}: a man's talk, cold`.padEnd(44)} forced layouts ${String(of('forced')).padStart(3)} (${ms(of('forcedMs'))})   layouts ${String(of('layouts')).padStart(3)}   blocking ${ms(of('blockingMs'))}   newest-page reads ${cold.map((figures) => figures.reads).join(',')}   load ${load} before`,
      );
      if (process.env.BENCH_TALK_WARM === '0') return; // cold only, when working on it
      // Warm: the worker in control and the talk kept on the device.
      const warm = async (
        name: string,
        url: string,
        probes: (keyof typeof DRAWN_PROBES)[],
        on: BrowserContext = context,
      ) => {
        load = await quietLoad(60);
        const times: Record<string, number>[] = [];
        for (let run = 0; run < runs; run++) times.push(await warmOpen(on, url, probes));
        const figures = probes.map((probe) => `${probe} ${ms(median(times.map((time) => time[probe]!)))}`);
        console.log(`${`${label}: ${name}`.padEnd(44)} ${figures.join('   ')}   load ${load} before`);
      };
      const visitor = await installedVisitor(enishi.url);
      try {
        await warm('prerendered /enter, warm', `${enishi.url}/enter`, ['public'], visitor);
      } finally {
        await visitor.close();
      }
      await warm("a man's home, warm", `${enishi.url}/`, ['home']);
      await warm("a man's talk, warm", `${enishi.url}${talk}`, ['talk']);
      await context.setOffline(true);
      try {
        await warm("a man's home, offline", `${enishi.url}/`, ['home', 'offline']);
        await warm("a man's talk, offline", `${enishi.url}${talk}`, ['talk', 'offline']);
      } finally {
        await context.setOffline(false);
      }
    } finally {
      await context.close();
    }
  } finally {
    await enishi.stop();
  }
}

export async function benchTalkOpen(): Promise<void> {
  console.log(
    `\nOpening a man's talk (Chromium, ${CPU_SLOWDOWN}× CPU slowdown, median of ${runs}; ms from navigation start)`,
  );
  const before = process.env.BENCH_WEB_DIST_BEFORE;
  if (before) await measureBuild('before', before);
  await measureBuild(before ? 'this build' : 'Enishi');
}
