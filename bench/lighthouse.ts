// Lighthouse (mobile, default simulated throttling) on the public pages, next to a hello-world React page
// built with the same Vite and served by the same Fastify, in the same run and the same Chromium.
import { fork } from 'node:child_process';
import { once } from 'node:events';
import { launch } from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { chromiumArgs, chromiumPath } from '../e2e/lib/chromium.js';
import { freePort } from '../server/src/test/process.js';
import { buildHelloWorld, startEnishi, stopChild } from './lib.js';

type Figures = { performance: number; lcp: number; tbt: number; cls: number; fcp: number };

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? NaN;

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
async function audit(url: string, port: number, tries = 3): Promise<Figures> {
  try {
    return await auditOnce(url, port);
  } catch (error) {
    if (tries <= 1) throw error;
    return audit(url, port, tries - 1);
  }
}

async function auditOnce(url: string, port: number): Promise<Figures> {
  const result = await lighthouse(url, {
    port,
    output: 'json',
    logLevel: 'error',
    onlyCategories: ['performance'],
  });
  if (!result) throw new Error(`Lighthouse gave no result for ${url}`);
  const { lhr } = result;
  if (lhr.runtimeError) throw new Error(`${url}: ${lhr.runtimeError.message}`);
  const metric = (id: string) => lhr.audits[id]?.numericValue ?? NaN;
  return {
    performance: Math.round((lhr.categories.performance?.score ?? 0) * 100),
    fcp: metric('first-contentful-paint'),
    lcp: metric('largest-contentful-paint'),
    tbt: metric('total-blocking-time'),
    cls: metric('cumulative-layout-shift'),
  };
}

/** Each page `runs` times (BENCH_LIGHTHOUSE_RUNS, 3 by default); the median and range of each figure. */
export async function benchLighthouse(runs = Number(process.env.BENCH_LIGHTHOUSE_RUNS ?? 3)): Promise<void> {
  const hello = await startHelloSite(buildHelloWorld());
  const enishi = await startEnishi([]);
  // The e2e suite's headless flags; Lighthouse sets the mobile screen and throttling itself.
  const chrome = await launch({ chromePath: chromiumPath, chromeFlags: chromiumArgs });
  try {
    const pages = [
      ['hello-world React', `${hello.url}/`],
      ['Enishi /enter', `${enishi.url}/enter`],
      ['Enishi /login', `${enishi.url}/login`],
    ] as const;
    console.log(`\nLighthouse ${'(mobile, simulated throttling, median of ' + runs + ')'}`);
    console.log(`${''.padEnd(22)} perf     FCP       LCP       TBT     CLS   (perf range)`);
    for (const [name, url] of pages) {
      const figures: Figures[] = [];
      for (let run = 0; run < runs; run++) figures.push(await audit(url, chrome.port));
      const of = (key: keyof Figures) => median(figures.map((figure) => figure[key]));
      const scores = figures.map((figure) => figure.performance);
      console.log(
        `${name.padEnd(22)} ${String(of('performance')).padStart(4)}  ${ms(of('fcp'))}  ${ms(of('lcp'))}  ${ms(of('tbt'))}  ${of('cls').toFixed(3)}   (${Math.min(...scores)}-${Math.max(...scores)})`,
      );
    }
  } finally {
    chrome.kill();
    await Promise.all([hello.stop(), enishi.stop()]);
  }
}

const ms = (value: number) => `${Math.round(value).toString().padStart(5)} ms`;
