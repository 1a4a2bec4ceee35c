// Voice calls (product.md §17) on loopback: how long from the caller's `calling` frame to the callee's ring,
// and from the callee pressing accept to both connections connected, over N calls between two Chromium
// phones with fake microphones. Runs inside a loopback-only network namespace (e2e/lib/netns.ts), so root.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { ja, jaMember } from '@enishi/contract';
import { startCallRig } from '../e2e/lib/call-rig.js';
import { NetNamespace } from '../e2e/lib/netns.js';
import { people } from '../e2e/lib/users.js';

type Timed = Window & {
  __peers: (RTCPeerConnection & { __connectedAt?: number })[];
  __rings: (AudioContext & { __startedAt: number })[];
  __sentAt: { calling?: number };
};

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))] ?? 0;
};

const heading = (page: Page, name: string) =>
  page.getByRole('dialog').getByRole('heading', { name, exact: true }).waitFor({ timeout: 20_000 });

/** One call: staff call the man, he accepts, both connect, staff hang up. Returns [ring ms, connect ms]. */
async function oneCall(staff: Page, man: Page): Promise<[number, number]> {
  const ringsBefore = await man.evaluate(() => (window as unknown as Timed).__rings.length);
  // This call's connections are the ones made from now on (earlier calls' stay in the lists).
  const peersBefore = await Promise.all(
    [man, staff].map((page) => page.evaluate(() => (window as unknown as Timed).__peers.length)),
  );
  await staff.getByRole('button', { name: jaMember.calls.callButton }).click();
  await staff.getByRole('dialog').getByRole('button', { name: jaMember.calls.start, exact: true }).click();
  await heading(man, jaMember.calls.incoming);
  const calledAt = await staff.evaluate(() => (window as unknown as Timed).__sentAt.calling ?? 0);
  const rangAt = await man.evaluate(
    (index) => (window as unknown as Timed).__rings[index]!.__startedAt,
    ringsBefore,
  );
  // Pressed from inside the page, so the moment of the press is the page's own clock.
  const acceptedAt = await man.evaluate((label) => {
    const button = [...document.querySelectorAll('dialog button')].find((node) => node.textContent === label);
    (button as HTMLButtonElement).click();
    return Date.now();
  }, jaMember.calls.accept);
  const connected = (page: Page, index: number) =>
    page.waitForFunction((at) => (window as unknown as Timed).__peers[at]?.__connectedAt, index, {
      timeout: 20_000,
    });
  const [manAt, staffAt] = await Promise.all([
    connected(man, peersBefore[0]!),
    connected(staff, peersBefore[1]!),
  ]);
  const bothAt = Math.max(Number(await manAt.jsonValue()), Number(await staffAt.jsonValue()));
  await staff.getByRole('dialog').getByRole('button', { name: jaMember.calls.hangUp, exact: true }).click();
  for (const page of [staff, man]) {
    await heading(page, jaMember.calls.reasons.ended);
    await page.getByRole('dialog').getByRole('button', { name: ja.app.close, exact: true }).click();
    await page.getByRole('dialog').waitFor({ state: 'detached' });
  }
  return [rangAt - calledAt, bothAt - acceptedAt];
}

const TURNSERVER = '/usr/bin/turnserver';

/**
 * The calls relay audio through a real TURN server (coturn), as the browser tests do: installed here when
 * missing and run as root (as scripts/test.mjs installs its Debian packages); otherwise the section says
 * what to install and is skipped.
 */
function ensureCoturn(): boolean {
  if (existsSync(TURNSERVER)) return true;
  if (process.getuid?.() !== 0) {
    console.log('skipped: needs coturn (TURN server): sudo apt-get install -y coturn');
    return false;
  }
  console.log('installing the Debian package coturn for the calls section');
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  for (const args of [
    ['update', '-qq'],
    ['install', '-y', '-qq', 'coturn'],
  ]) {
    if (spawnSync('apt-get', args, { stdio: 'inherit', env }).status !== 0) {
      console.log('skipped: coturn could not be installed (apt-get install -y coturn)');
      return false;
    }
  }
  return existsSync(TURNSERVER);
}

export async function benchCalls(options: { calls?: number } = {}) {
  const count = options.calls ?? 50;
  console.log(`\nVoice calls (${count} calls, two Chromium phones, loopback)`);
  if (!NetNamespace.available()) {
    console.log('skipped: needs a network namespace (unshare -n), so root');
    return;
  }
  if (!ensureCoturn()) return;
  // One staff member calls again and again: far above the fair-use limit of 6 calls a minute.
  const rig = await startCallRig({ CALLS_PER_MINUTE: '1000000' });
  try {
    const staff = (await rig.phoneOf('staff')).page;
    const man = (await rig.phoneOf('man')).page;
    await man.goto('/contact');
    await man.getByRole('button', { name: new RegExp(people.staff.name) }).waitFor({ timeout: 20_000 });
    await staff.goto('/talkrooms/men');
    await staff.getByRole('link', { name: people.man.name }).click();
    await staff.getByRole('button', { name: jaMember.calls.callButton }).waitFor();
    const ring: number[] = [];
    const connect: number[] = [];
    for (let i = 0; i < count; i++) {
      const [ringMs, connectMs] = await oneCall(staff, man);
      ring.push(ringMs);
      connect.push(connectMs);
    }
    const line = (name: string, values: number[]) =>
      console.log(
        `${name.padEnd(40)} p50 ${percentile(values, 50).toFixed(0).padStart(5)} ms   p99 ${percentile(values, 99).toFixed(0).padStart(5)} ms`,
      );
    line('calling -> callee rings', ring);
    line('accept -> both connected', connect);
  } finally {
    await rig.close();
  }
}
