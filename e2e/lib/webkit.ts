import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { freePort } from '../../server/src/test/process.js';

/*
 * WebKit, the engine of every iPhone browser, driven over W3C WebDriver: Debian's WebKitGTK MiniBrowser
 * through WebKitWebDriver, on a virtual display (xvfb-run). playwright-core cannot drive it, so this is the
 * handful of WebDriver calls the members' paths need (docs/product.md §2.7).
 */

export const webkitDriverPath = '/usr/bin/WebKitWebDriver';
const miniBrowser = '/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser';
/** The name WebDriver gives an element reference in its replies. */
const ELEMENT = 'element-6066-11e4-a52e-4f735466cecf';

export interface WebKitDriver {
  /** A new browser window; close it with `session.close()`. */
  session(viewport: { width: number; height: number }): Promise<WebKitSession>;
  stop(): Promise<void>;
}

/** How long opening a MiniBrowser window may take before the driver is started again (once). */
const SESSION_MS = 45_000;

/** WebKitWebDriver on a free port of 127.0.0.1 under a virtual display. */
async function startDriverProcess(): Promise<{ base: string; stop(): Promise<void> }> {
  const port = await freePort();
  const child = spawn(
    'xvfb-run',
    ['-a', '-s', '-screen 0 1440x1000x24', webkitDriverPath, `--port=${port}`, '--host=127.0.0.1'],
    { stdio: 'ignore', detached: true },
  );
  const base = `http://127.0.0.1:${port}`;
  await untilListening(base, child);
  return {
    base,
    stop: async () => {
      if (child.pid === undefined || child.exitCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      process.kill(-child.pid, 'SIGTERM');
      await exited;
    },
  };
}

/** Starts WebKitWebDriver on a free port of 127.0.0.1 under a virtual display. */
export async function startWebKitDriver(): Promise<WebKitDriver> {
  for (const file of [webkitDriverPath, miniBrowser, '/usr/bin/xvfb-run']) {
    if (!existsSync(file)) throw new Error(`${file} is missing: apt-get install webkit2gtk-driver xvfb`);
  }
  let driver = await startDriverProcess();
  const capabilities = {
    alwaysMatch: { 'webkitgtk:browserOptions': { binary: miniBrowser, args: ['--automation'] } },
  };
  return {
    session: async (viewport) => {
      let reply: { sessionId: string };
      try {
        reply = await call(driver.base, 'POST', '/session', { capabilities }, SESSION_MS);
      } catch (error) {
        // Once in a fresh-clone CI on a busy 2-core machine, a WebKit test ran out its two minutes on a WebDriver
        // call that never answered (calls had no deadline then, so which one was not recorded; opening a window
        // starts a browser, the likeliest to hang). A driver that gives no window is started again, once.
        console.warn(`WebKit: no new window (${String(error)}); starting the driver again`);
        await driver.stop();
        driver = await startDriverProcess();
        reply = await call(driver.base, 'POST', '/session', { capabilities }, SESSION_MS);
      }
      const session = new WebKitSession(`${driver.base}/session/${reply.sessionId}`);
      await session.send('POST', '/window/rect', viewport);
      // Finding an element waits up to 15 s for it: WebDriver's own wait, not a sleep in the test. A navigation
      // that never ends fails in 30 s with WebDriver's error instead of the test's own timeout, which names nothing.
      await session.send('POST', '/timeouts', { implicit: 15_000, script: 30_000, pageLoad: 30_000 });
      return session;
    },
    stop: () => driver.stop(),
  };
}

async function untilListening(base: string, child: ChildProcess): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`WebKitWebDriver exited with ${child.exitCode}`);
    const ready = await fetch(`${base}/status`).then(
      (reply) => reply.ok,
      () => false,
    );
    if (ready) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error('WebKitWebDriver did not start within 30 s');
}

/**
 * One WebDriver call. Each has a deadline beyond WebDriver's own waits (15 s for an element, 30 s for a script
 * or a page load), so a driver that stops answering fails the call by name, not the test by its timeout.
 */
async function call<T>(base: string, method: string, path: string, body?: unknown, ms = 60_000): Promise<T> {
  const reply = await fetch(`${base}${path}`, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(ms),
  }).catch((error: unknown) => {
    throw new Error(`WebDriver ${method} ${path}: no answer within ${ms} ms`, { cause: error });
  });
  const json = (await reply.json()) as { value: T & { error?: string; message?: string } };
  if (!reply.ok) throw new Error(`WebDriver ${method} ${path}: ${json.value.error}: ${json.value.message}`);
  return json.value;
}

/** One MiniBrowser window. Elements are found by CSS selector or XPath, as WebDriver knows them. */
export class WebKitSession {
  constructor(private readonly base: string) {}

  send<T = unknown>(method: string, path: string, body?: unknown): Promise<T> {
    return call<T>(this.base, method, path, body);
  }

  async goto(url: string): Promise<void> {
    await this.send('POST', '/url', { url });
  }

  async url(): Promise<URL> {
    return new URL(await this.send<string>('GET', '/url'));
  }

  /** The first element matching `selector` (XPath when it starts with `/` or `(`), waiting for it to exist. */
  async find(selector: string): Promise<WebKitElement> {
    const using = /^[/(]/.test(selector) ? 'xpath' : 'css selector';
    const found = await this.send<Record<string, string>>('POST', '/element', { using, value: selector });
    return new WebKitElement(this, found[ELEMENT]!);
  }

  /** Runs `script` (a function body; `arguments` as WebDriver gives them) in the page. */
  run<T>(script: string, ...args: unknown[]): Promise<T> {
    return this.send<T>('POST', '/execute/sync', { script, args });
  }

  /**
   * Resolves once `condition` (an expression, evaluated in the page) is true: checked at once and again after
   * each change to the document, so nothing here sleeps. Fails after `timeout` ms with `what` in the error.
   */
  async until(condition: string, what: string, timeout = 15_000): Promise<void> {
    const met = await this.send<boolean>('POST', '/execute/async', {
      script: `const done = arguments[arguments.length - 1];
        const check = () => { try { return Boolean(${condition}); } catch { return false; } };
        if (check()) return done(true);
        const observer = new MutationObserver(() => { if (check()) { finish(true); } });
        const timer = setTimeout(() => finish(check()), ${timeout});
        const finish = (value) => { observer.disconnect(); clearTimeout(timer); done(value); };
        observer.observe(document, { subtree: true, childList: true, characterData: true, attributes: true });
        addEventListener('popstate', () => { if (check()) finish(true); });`,
      args: [],
    });
    if (met) return;
    // What the page showed then, so that a failure seen once in CI can be explained.
    const shown = await this.run<string>(
      "return (document.querySelector('main') ?? document.body).innerText.slice(-600);",
    ).catch(() => '(unreadable)');
    throw new Error(
      `WebKit: ${what} did not happen within ${timeout} ms (at ${await this.url()}); the screen's end:\n${shown}`,
    );
  }

  /** The page as a PNG. */
  async screenshot(): Promise<Buffer> {
    return Buffer.from(await this.send<string>('GET', '/screenshot'), 'base64');
  }

  async close(): Promise<void> {
    await this.send('DELETE', '');
  }
}

export class WebKitElement {
  constructor(
    private readonly session: WebKitSession,
    private readonly id: string,
  ) {}

  async click(): Promise<void> {
    await this.session.send('POST', `/element/${this.id}/click`, {});
  }

  /** Types `text` with real key events, as a person would. */
  async type(text: string): Promise<void> {
    await this.session.send('POST', `/element/${this.id}/value`, { text });
  }

  async text(): Promise<string> {
    return this.session.send<string>('GET', `/element/${this.id}/text`);
  }
}
