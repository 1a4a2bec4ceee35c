import { once } from 'node:events';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ChildProcess } from 'node:child_process';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { chromiumArgs, headlessShellPath, logIn, phone } from './browser.js';
import { NetNamespace } from './netns.js';
import { watchSecrets } from './secrets.js';
import { repoRoot, seedUsers, serverEnv } from './server.js';
import { people, type Person } from './users.js';

/*
 * Everything a voice call test needs, inside one network namespace with only loopback (netns.ts): the built
 * server (ICE_SERVERS pointing at the TURN server, TURN_SECRET for its credentials), coturn with
 * `use-auth-secret`, and Chromium with fake microphones. Pages record their RTCPeerConnections and
 * AudioContexts (the ring) so that tests read what a browser really did: connection state, getStats, whether
 * the ring still plays.
 */

const PORT = 8080;
const TURN_PORT = 3478;
const TURN_SECRET = 'e2e-turn-secret-0123456789';
export const baseURL = `http://127.0.0.1:${PORT}`;

export const callChromiumArgs = [
  '--use-fake-device-for-media-stream',
  '--use-fake-ui-for-media-stream',
  '--allow-loopback-in-peer-connection',
  '--autoplay-policy=no-user-gesture-required',
];

/**
 * Before the app's scripts: say online (the namespace has loopback only), keep every connection and audio
 * context with when it connected or started ringing, and when the last `calling` frame left (and force
 * relay-only ICE when asked).
 */
const recorder = (relayOnly: boolean) => `(() => {
  // Chromium counts a machine with only loopback as offline, and the app sends nothing while offline.
  Object.defineProperty(Navigator.prototype, 'onLine', { configurable: true, get: () => true });
  const NativePeer = window.RTCPeerConnection;
  window.__peers = [];
  window.RTCPeerConnection = class extends NativePeer {
    constructor(config) {
      super(${relayOnly} ? { ...config, iceTransportPolicy: 'relay' } : config);
      window.__peers.push(this);
      this.addEventListener('connectionstatechange', () => {
        if (this.connectionState === 'connected') this.__connectedAt ??= Date.now();
      });
    }
  };
  const NativeAudio = window.AudioContext;
  window.__rings = [];
  window.AudioContext = class extends NativeAudio {
    constructor(...args) {
      super(...args);
      this.__startedAt = Date.now();
      window.__rings.push(this);
    }
  };
  // When each call frame left (the bench times from the caller's calling frame).
  window.__sentAt = {};
  const nativeSend = WebSocket.prototype.send;
  WebSocket.prototype.send = function (data) {
    if (typeof data === 'string' && data.startsWith('{"type":"calling"')) window.__sentAt.calling = Date.now();
    return nativeSend.call(this, data);
  };
})();`;

export interface CallRig {
  browser: Browser;
  /** A logged-in phone (375 px) of `who`; `relayOnly` makes its calls use TURN only. */
  phoneOf(
    who: Person,
    options?: { relayOnly?: boolean; viewport?: { width: number; height: number } },
  ): Promise<{ context: BrowserContext; page: Page }>;
  close(): Promise<void>;
}

function startTurn(ns: NetNamespace): Promise<ChildProcess> {
  const dir = mkdtempSync(join(tmpdir(), 'enishi-turn-'));
  const turn = ns.spawn(
    '/usr/bin/turnserver',
    [
      '-n',
      '-v', // verbose: says when the UDP listener is open
      `--pidfile=${join(dir, 'turnserver.pid')}`,
      `--db=${join(dir, 'turndb')}`,
      '--listening-ip=127.0.0.1',
      `--listening-port=${TURN_PORT}`,
      '--relay-ip=127.0.0.1',
      '--min-port=49160',
      '--max-port=49260',
      '--use-auth-secret',
      `--static-auth-secret=${TURN_SECRET}`,
      '--realm=enishi.test',
      '--no-tls',
      '--no-dtls',
      '--no-cli',
      '--allow-loopback-peers',
      '--fingerprint',
      '--log-file=stdout',
      '--simple-log',
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  return new Promise((resolve, reject) => {
    let log = '';
    let ready = false;
    const timer = setTimeout(() => {
      turn.kill('SIGKILL');
      reject(new Error(`coturn did not start:\n${log}`));
    }, 20_000);
    // Read to the end (a full pipe would stop coturn), keeping only what comes before it is ready.
    turn.stdout?.on('data', (chunk: Buffer) => {
      if (ready) return;
      log += chunk.toString();
      if (/UDP listener opened on/i.test(log)) {
        ready = true;
        clearTimeout(timer);
        resolve(turn);
      }
    });
    turn.once('exit', (code) => reject(new Error(`coturn exited (${code}):\n${log}`)));
  });
}

/** `extraEnv`: more server settings (the bench lifts the calls-per-minute limit). */
export async function startCallRig(extraEnv: NodeJS.ProcessEnv = {}): Promise<CallRig> {
  const ns = await NetNamespace.create();
  const env = serverEnv(PORT, {
    OWNER_ID: people.owner.id,
    OWNER_PASSWORD: people.owner.password,
    ICE_SERVERS: JSON.stringify([{ urls: `turn:127.0.0.1:${TURN_PORT}?transport=udp` }]),
    TURN_SECRET,
    ...extraEnv,
  });
  seedUsers(env, [people.staff, people.man]);
  const children: ChildProcess[] = [];
  async function stopAll() {
    for (const child of children) {
      if (child.exitCode !== null || child.signalCode !== null) continue;
      child.kill('SIGTERM');
      await once(child, 'exit');
    }
    ns.close();
  }
  let browser: Browser;
  try {
    const serverMain = join(repoRoot, 'server/dist/main.js');
    children.push(ns.spawn(process.execPath, [serverMain], { env, stdio: 'inherit' }));
    children.push(await startTurn(ns));
    await ns.waitForHttp(`${baseURL}/healthz`);
    browser = await chromium.launch({
      executablePath: ns.wrapper(headlessShellPath),
      args: [...chromiumArgs, ...callChromiumArgs],
    });
  } catch (error) {
    await stopAll();
    throw error;
  }
  const contexts: BrowserContext[] = [];

  return {
    browser,
    async phoneOf(who, options = {}) {
      const context = await browser.newContext({
        baseURL,
        viewport: options.viewport ?? phone,
        locale: 'ja-JP',
        timezoneId: 'Asia/Tokyo',
      });
      contexts.push(context);
      watchSecrets(context);
      await context.addInitScript('globalThis.__name = f => f');
      await context.addInitScript(recorder(options.relayOnly ?? false));
      const page = await context.newPage();
      await logIn(page, who);
      return { context, page };
    },
    async close() {
      for (const context of contexts) await context.close().catch(() => undefined);
      await browser.close().catch(() => undefined);
      await stopAll();
    },
  };
}
