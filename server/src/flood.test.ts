import { rm } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { flood, FULL_FLOOD, rssOf, watchRss, type FloodTarget } from './test/flood.js';
import { firstConversation, loginAs } from './test/http-client.js';
import { freePort, startServerProcess, type ServerProcess } from './test/process.js';
import { newDataDir } from './test/template-database.js';

/*
 * One member floods the server (product.md §15.7 item 5): 4 sockets x 32 frames of 5 x 4 MB images, 500
 * socket attempts and 2,000 messages, for 30 s. Past the member's picture budget their sockets are left unread, so
 * the flood waits on the flooder's side. The server process stays under 1 GB and comes back to within 100 MB
 * of where it started. Delivery times under the flood are a figure of `npm run bench` (bench/flood.ts).
 * Nothing here is timed, so it runs among the unit tests rather than alone with the load tests: a busier machine
 * only makes the flooder slower, which leaves more of its pictures unread.
 */

const MB = 1024 * 1024;
/** How long the flooder keeps at it before giving up (dropping its sockets). */
const FLOOD_SECONDS = 30;
const PEOPLE = {
  owner: { id: 'owner', password: 'Owner-pass1' },
  flooder: { id: 'flooder', password: 'Flood-pass1' },
  talker: { id: 'talker', password: 'Talk-pass01' },
};

/** A man (rank 1), added by the owner as the members' screen does (POST /api/adduser). */
async function addMan(url: string, ssid: string, who: { id: string; password: string }, name: string) {
  const reply = await fetch(`${url}/api/adduser`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ ssid, id: who.id, name, pass: who.password, rank: 1, role: 101, introducer: '' }),
  });
  if (!reply.ok) throw new Error(`adduser ${who.id}: ${reply.status} ${await reply.text()}`);
}

describe('one member flooding the server', () => {
  let dataDir: string;
  let server: ServerProcess;
  let target: FloodTarget;

  beforeAll(async () => {
    dataDir = newDataDir('enishi-flood-');
    const port = await freePort();
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      DATABASE_URL: '',
      REDIS_URL: '',
      HOST: '127.0.0.1',
      PORT: String(port),
      DATA_DIR: dataDir,
      OWNER_ID: PEOPLE.owner.id,
      OWNER_PASSWORD: PEOPLE.owner.password,
      WEB_DIST: path.join(dataDir, 'no-web'),
      // Production's fair use, not the raised limits of other process tests.
      CHAT_MESSAGES_PER_SECOND: '10',
      CHAT_MESSAGE_BURST: '30',
      CHAT_IMAGES_PER_MINUTE: '20',
      CHAT_IMAGE_BURST: '20',
    };
    server = await startServerProcess(env);
    const url = server.baseUrl;
    const owner = await loginAs(url, PEOPLE.owner);
    // The owner adds the two men over the API: a script each would open the embedded database again (the
    // first one creating it), most of this file's setup on a busy machine.
    for (const [name, who] of [
      ['洪水 太郎', PEOPLE.flooder],
      ['会話 次郎', PEOPLE.talker],
    ] as const)
      await addMan(url, owner, who, name);
    const [flooder, talker] = await Promise.all(
      [PEOPLE.flooder, PEOPLE.talker].map((who) => loginAs(url, who)),
    );
    target = {
      url,
      origin: `http://localhost:${port}`,
      pid: server.child.pid!,
      flooder: { ssid: flooder!, desk: await firstConversation(url, flooder!, 'staff') },
      talker: { ssid: talker!, desk: await firstConversation(url, talker!, 'staff') },
      staff: { ssid: owner },
    };
  }, 120_000);

  afterAll(async () => {
    server?.child.kill('SIGTERM');
    await server?.exited;
    await rm(dataDir, { recursive: true, force: true });
  });

  it('stays under 1 GB and returns to within 100 MB of its start', { timeout: 400_000 }, async () => {
    // Warm: the code paths of a message and of a socket have run once, as they have on a server in use.
    await flood(target, { ...FULL_FLOOD, sockets: 1, framesPerSocket: 1, socketAttempts: 20, messages: 5 });
    const start = rssOf(target.pid);
    const watch = watchRss(target.pid);
    const outcome = await flood(target, FULL_FLOOD, FLOOD_SECONDS);
    const peak = watch.stop();
    const figures = () =>
      `RSS start ${(start / MB).toFixed(0)} MB, peak ${(peak / MB).toFixed(0)} MB, ` +
      `now ${(rssOf(target.pid) / MB).toFixed(0)} MB; ${JSON.stringify(outcome)}`;
    expect(outcome.refusedSockets, figures()).toBeGreaterThanOrEqual(FULL_FLOOD.socketAttempts - 10);
    // The pictures are held back at the member's budget (a burst of 20, then 20 a minute; the warm-up took
    // some), not taken in: the flood is still waiting on the flooder's side when its time is up.
    expect(outcome.cutOff, figures()).toBe(true);
    const allowed = Math.ceil((20 + (FLOOD_SECONDS * 20) / 60) / FULL_FLOOD.imagesPerFrame);
    // No lower bound: on a loaded 2-core machine the first 20 MB frame may still be in decoding when the
    // flooder gives up. That pictures within the budget are taken is asserted in realtime/hostile-clients.test.ts.
    expect(outcome.picturesStored, figures()).toBeLessThanOrEqual(allowed);
    // Most of the pictures never left the flooder: the server did not read them to refuse them.
    const sent =
      FULL_FLOOD.sockets * FULL_FLOOD.framesPerSocket * FULL_FLOOD.imagesPerFrame * FULL_FLOOD.imageBytes;
    expect(outcome.bytesLeftUnread, figures()).toBeGreaterThan(sent / 2);
    expect(peak, figures()).toBeLessThan(1024 * MB);
    // Memory is given back a moment after the last large frame: wait for it (bounded), never a fixed sleep.
    await expect
      .poll(() => rssOf(target.pid), { interval: 250, timeout: 30_000, message: figures() })
      .toBeLessThan(start + 100 * MB);
  });
});
