import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Page } from 'playwright-core';
import { ja, jaMember } from '@enishi/contract';
import { startCallRig, type CallRig } from '../lib/call-rig.js';
import { NetNamespace } from '../lib/netns.js';
import { people } from '../lib/users.js';
import { photograph } from '../lib/photograph.js';

/*
 * Emergency voice calls in real Chromium (product.md §17): two phones, a staff member and a male member, with
 * fake microphones, against the real server, inside a network namespace with only loopback (lib/netns.ts), and
 * once through a real TURN relay (coturn). Screenshots of each overlay at 375 px go to e2e/screenshots/.
 */

const canRun = NetNamespace.available();
if (!canRun) console.warn('calls.test.ts skipped: network namespaces (unshare -n) need root here');

let rig: CallRig;
let staff: Page;
let man: Page;

beforeAll(async () => {
  if (!canRun) return;
  rig = await startCallRig();
  staff = (await rig.phoneOf('staff')).page;
  man = (await rig.phoneOf('man')).page;
  await waitForStaffList(man);
});
afterAll(async () => {
  await rig?.close();
});

const overlay = (page: Page) => page.getByRole('dialog');
const showing = (page: Page, text: string) =>
  overlay(page).getByRole('heading', { name: text, exact: true }).waitFor({ timeout: 20_000 });
const press = (page: Page, name: string) => overlay(page).getByRole('button', { name, exact: true }).click();
const shoot = (page: Page, name: string) => photograph(page, `call-${name}.png`);

type Recorded = Window & { __peers: RTCPeerConnection[]; __rings: AudioContext[] };

/** Whether the ring plays: an audio context of the page that is running. */
const ringing = (page: Page) =>
  page.evaluate(() => (window as unknown as Recorded).__rings.some((ring) => ring.state === 'running'));

const connectionState = (page: Page) =>
  page.evaluate(() => (window as unknown as Recorded).__peers.at(-1)?.connectionState ?? 'none');

/** Audio bytes received by the page's newest connection. */
const audioBytes = (page: Page) =>
  page.evaluate(async () => {
    const peer = (window as unknown as Recorded).__peers.at(-1);
    if (!peer) return 0;
    let bytes = 0;
    (await peer.getStats()).forEach((report: { type: string; kind?: string; bytesReceived?: number }) => {
      if (report.type === 'inbound-rtp' && report.kind === 'audio') bytes += report.bytesReceived ?? 0;
    });
    return bytes;
  });

/** The candidate types (host, srflx, relay) of the pair the newest connection uses, local and remote. */
const selectedPair = (page: Page) =>
  page.evaluate(async () => {
    const peer = (window as unknown as Recorded).__peers.at(-1);
    const reports = new Map<string, Record<string, string>>();
    (await peer!.getStats()).forEach((report: Record<string, string>) => reports.set(report.id!, report));
    const transport = [...reports.values()].find((report) => report.type === 'transport');
    const pair = reports.get(transport!.selectedCandidatePairId!)!;
    const type = (id: string | undefined) => reports.get(id!)!.candidateType;
    return [type(pair.localCandidateId), type(pair.remoteCandidateId)];
  });

/** The male member's /contact: the staff as buttons, once the socket is live (the list comes over it). */
async function waitForStaffList(page: Page) {
  await page.goto('/contact');
  await page.getByRole('button', { name: new RegExp(people.staff.name) }).waitFor({ timeout: 20_000 });
}

async function openManTalk(page: Page) {
  await page.goto('/talkrooms/men');
  await page.getByRole('link', { name: people.man.name }).click();
  await page.waitForURL(/\/talk\/(staff\/)?\d+$/);
  await page.getByRole('log', { name: ja.talk.timeline }).waitFor();
}

/** The call records (message_type 1) of the talk on the staff page, read over HTTP as the app reads it. */
async function callRecords(page: Page): Promise<string[]> {
  const id = Number(new URL(page.url()).pathname.split('/').pop());
  return page.evaluate(async (conversationId) => {
    const stored = JSON.parse(localStorage.getItem('enishi') ?? '{}') as { session?: { session: string } };
    const reply = await fetch('/api/messages', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ ssid: stored.session?.session, id: conversationId }),
    });
    const body = (await reply.json()) as {
      rows: { messages: { message: string; message_type: number }[] }[];
    };
    return body.rows
      .flatMap((group) => group.messages)
      .filter((message) => message.message_type === 1)
      .map((message) => message.message);
  }, id);
}

/** Staff call the man from his talk and he answers: both connected, his ring stopped. */
async function staffCallsMan() {
  await staff.getByRole('button', { name: jaMember.calls.callButton }).click();
  await showing(staff, jaMember.calls.startPrompt);
  await press(staff, jaMember.calls.start);
  await showing(staff, jaMember.calls.calling);
  await showing(man, jaMember.calls.incoming);
}

describe.skipIf(!canRun)('emergency voice calls', () => {
  test('staff call a man from his talk: the audio connects and flows, hang-up leaves one record', async () => {
    await openManTalk(staff);
    const before = (await callRecords(staff)).length;
    await staff.getByRole('button', { name: jaMember.calls.callButton }).click();
    await showing(staff, jaMember.calls.startPrompt);
    await shoot(staff, 'prompt');
    await press(staff, jaMember.calls.start);
    await showing(staff, jaMember.calls.calling);
    await showing(man, jaMember.calls.incoming);
    await expect.poll(() => ringing(man)).toBe(true);
    await shoot(staff, 'calling');
    await shoot(man, 'incoming');

    await press(man, jaMember.calls.accept);
    await showing(man, jaMember.calls.inCall);
    await showing(staff, jaMember.calls.inCall);
    expect(await ringing(man)).toBe(false);
    await expect.poll(() => connectionState(man)).toBe('connected');
    await expect.poll(() => connectionState(staff)).toBe('connected');
    const first = await audioBytes(staff);
    await expect.poll(() => audioBytes(staff)).toBeGreaterThan(first + 1000);
    const heard = await audioBytes(man);
    await expect.poll(() => audioBytes(man)).toBeGreaterThan(heard + 1000);
    await shoot(man, 'in-call');

    await press(staff, jaMember.calls.hangUp);
    await showing(staff, jaMember.calls.reasons.ended);
    await showing(man, jaMember.calls.reasons.ended);
    await shoot(man, 'ended');
    await expect.poll(() => connectionState(man)).toBe('closed');
    await expect.poll(async () => (await callRecords(staff)).length).toBe(before + 1);
    expect((await callRecords(staff)).at(-1)).toMatch(/^通話 \d+秒$/);
    await press(staff, ja.app.close);
    await press(man, ja.app.close);

    // The record stands in the talk as a note, with a call-back button for staff.
    const record = staff.getByRole('button', { name: jaMember.calls.callBack });
    await record.last().waitFor();
    await shoot(staff, 'record');
    expect(await callRecords(staff)).toHaveLength(before + 1);
  });

  test("from the desk (1440 px): the phone button in a man's talk; the call shrinks to a bar kept over other screens", async () => {
    const { page: desk, context } = await rig.phoneOf('staff', { viewport: { width: 1440, height: 900 } });
    await openManTalk(desk);
    await desk.getByRole('button', { name: jaMember.calls.callButton }).click();
    await showing(desk, jaMember.calls.startPrompt);
    await press(desk, jaMember.calls.start);
    await showing(man, jaMember.calls.incoming);
    await press(man, jaMember.calls.accept);
    await showing(desk, jaMember.calls.inCall);
    await expect.poll(() => connectionState(desk)).toBe('connected');

    // Shrunk to a bar, the call stays on top while staff open the men's table from the side navigation.
    await press(desk, jaMember.calls.minimize);
    const bar = desk.getByRole('region', { name: jaMember.calls.bar(people.man.name) });
    await bar.waitFor();
    await desk
      .getByRole('navigation', { name: jaMember.shell.nav })
      .getByRole('link', { name: '男性会員' })
      .click();
    await desk.getByRole('table').waitFor();
    expect(await bar.isVisible()).toBe(true);
    expect(await connectionState(desk)).toBe('connected');
    await shoot(desk, 'bar-desk-1440');
    const mute = bar.getByRole('button', { name: jaMember.calls.mute });
    await mute.click();
    expect(await mute.getAttribute('aria-pressed')).toBe('true');

    await bar.getByRole('button', { name: jaMember.calls.hangUp }).click();
    await showing(man, jaMember.calls.reasons.ended);
    await showing(desk, jaMember.calls.reasons.ended);
    await press(man, ja.app.close);
    await press(desk, ja.app.close);
    await context.close();
  });

  test('a man calls staff from /contact; declining stops the ring and tells him', async () => {
    await staff.goto('/');
    await waitForStaffList(man);
    await shoot(man, 'contact');
    await man.getByRole('button', { name: new RegExp(people.staff.name) }).click();
    await showing(man, jaMember.calls.startPrompt);
    await press(man, jaMember.calls.start);
    await showing(staff, jaMember.calls.incoming);
    await expect.poll(() => ringing(staff)).toBe(true);
    await press(staff, jaMember.calls.decline);
    await expect.poll(() => ringing(staff)).toBe(false);
    await expect(overlay(staff).count()).resolves.toBe(0);
    await showing(man, jaMember.calls.reasons.declined);
    await shoot(man, 'declined');
    await press(man, ja.app.close);
  });

  test('the caller cancelling stops the ring', async () => {
    await openManTalk(staff);
    await man.goto('/mypage');
    await waitForStaffList(man);
    await staffCallsMan();
    await expect.poll(() => ringing(man)).toBe(true);
    await press(staff, jaMember.calls.cancel);
    await expect.poll(() => ringing(man)).toBe(false);
    await overlay(man).waitFor({ state: 'detached' });
  });

  test('a phone that goes away mid-call (its socket and connection gone) ends the call within 10 s', async () => {
    const phone = await rig.phoneOf('man');
    await waitForStaffList(phone.page);
    await openManTalk(staff);
    await staff.getByRole('button', { name: jaMember.calls.callButton }).click();
    await press(staff, jaMember.calls.start);
    await showing(phone.page, jaMember.calls.incoming);
    await press(phone.page, jaMember.calls.accept);
    await showing(staff, jaMember.calls.inCall);
    await showing(phone.page, jaMember.calls.inCall);
    await overlay(man).waitFor({ state: 'detached' });

    // Gone without a word (its renderer crashes: no pagehide, no cancelCall), as a phone that dies.
    const cdp = await phone.context.newCDPSession(phone.page);
    const lost = Date.now();
    // The crash is never answered (the renderer is gone): not awaited.
    void cdp.send('Page.crash').catch(() => undefined);
    await showing(staff, jaMember.calls.reasons.dropped);
    expect(Date.now() - lost).toBeLessThan(10_000);
    await expect.poll(() => connectionState(staff)).toBe('closed');
    await press(staff, ja.app.close);
    await phone.context.close().catch(() => undefined);
  });

  test('through a TURN relay only (coturn, use-auth-secret): connects on a relay pair', async () => {
    const relayStaff = (await rig.phoneOf('staff', { relayOnly: true })).page;
    const relayMan = (await rig.phoneOf('man', { relayOnly: true })).page;
    await waitForStaffList(relayMan);
    await openManTalk(relayStaff);
    await relayStaff.getByRole('button', { name: jaMember.calls.callButton }).click();
    await press(relayStaff, jaMember.calls.start);
    // Both of the man's phones ring; the relay one answers.
    await showing(relayMan, jaMember.calls.incoming);
    await press(relayMan, jaMember.calls.accept);
    await showing(relayStaff, jaMember.calls.inCall);
    await expect.poll(() => connectionState(relayMan), { timeout: 20_000 }).toBe('connected');
    expect(await selectedPair(relayMan)).toEqual(['relay', 'relay']);
    expect(await selectedPair(relayStaff)).toEqual(['relay', 'relay']);
    const first = await audioBytes(relayStaff);
    await expect.poll(() => audioBytes(relayStaff)).toBeGreaterThan(first + 1000);
    await overlay(man).waitFor({ state: 'detached' });
    await press(relayMan, jaMember.calls.hangUp);
    await showing(relayStaff, jaMember.calls.reasons.ended);
  });
});
