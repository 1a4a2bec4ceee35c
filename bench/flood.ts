// One member floods the server (4 sockets x 32 frames of 5 x 4 MB images, 500 socket attempts, 2,000
// messages) while three other members talk at 10 messages a second each: the server's RSS at start, peak and
// after, and their delivery to staff p50/p99 without the flood and during it, in the same run.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { setPriority } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { pooled, timeDelivery, type DeliveryTimes } from '../server/src/test/delivery-times.js';
import {
  flood,
  FULL_FLOOD,
  rssOf,
  settled,
  watchRss,
  type FloodOutcome,
  type FloodTarget,
} from '../server/src/test/flood.js';
import { firstConversation, loginAs } from '../server/src/test/http-client.js';
import { repoRoot, startEnishi } from './lib.js';

const MB = 1024 * 1024;
const PASSWORD = 'Bench-pass.1';
/**
 * Members talking while timed, each at 10 messages a second (their own budget's rate). A p99 is one of its
 * slowest deliveries: of one talker's 300 in 30 s it is the third slowest, and one run to the next it moved
 * by half (decision 010); three talkers give it three times the deliveries.
 */
const TALKERS = Number(process.env.BENCH_FLOOD_TALKERS ?? 3);
/** V8's memory reducer starts this long after allocation stops (`--gc-memory-reducer-start-delay-ms`), and more. */
const MEMORY_REDUCER_MS = 10_000;

/** The full flood from a process of its own (bench/flood-child.ts); resolves when it is over. */
async function floodFromChild(target: FloodTarget): Promise<FloodOutcome> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', join(repoRoot, 'bench/flood-child.ts'), JSON.stringify(target)],
    {
      cwd: repoRoot,
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  // The flooder stands in for a machine of its own: on this one it shares the server's cores, so it gets what
  // the server and the timed member leave (it still sends faster than the server takes in).
  setPriority(child.pid!, 19);
  let out = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  const [code] = (await once(child, 'exit')) as [number | null];
  if (code !== 0) throw new Error(`the flood process exited with ${code}`);
  return JSON.parse(out.trim().split('\n').pop() ?? '{}') as FloodOutcome;
}

export async function benchFlood(): Promise<void> {
  const talkerIds = Array.from({ length: TALKERS }, (_, i) => `talker${i + 1}`);
  const people = [
    { id: 'flooder', password: PASSWORD, name: '洪水太郎', role: 101 },
    { id: 'desk', password: PASSWORD, name: '計測スタッフ', role: 3 },
    ...talkerIds.map((id, i) => ({ id, password: PASSWORD, name: `会話${i + 1}郎`, role: 101 })),
  ];
  const server = await startEnishi(people);
  try {
    const [flooder, staff, ...talking] = await Promise.all(
      people.map(({ id, password }) => loginAs(server.url, { id, password })),
    );
    const talkers = await Promise.all(
      talking.map(async (ssid) => ({
        ssid: ssid!,
        desk: await firstConversation(server.url, ssid!, 'staff'),
      })),
    );
    const target = {
      url: server.url,
      origin: server.url,
      pid: server.child.pid!,
      flooder: { ssid: flooder!, desk: await firstConversation(server.url, flooder!, 'staff') },
      talker: talkers[0]!,
      staff: { ssid: staff! },
    };
    // Every talker's deliveries over the same while, as one figure.
    const timeAll = async (until: Promise<unknown>) =>
      pooled(await Promise.all(talkers.map((talker) => timeDelivery({ ...target, talker }, 10, until))));
    // As long as the flood lasts (30 s), so that both p99 come from as many messages.
    const seconds = Number(process.env.BENCH_FLOOD_QUIET_SECONDS ?? 30);
    // Warm-up: one small flood, so one-time growth (code, caches) is not counted as the flood's.
    await flood(target, { ...FULL_FLOOD, sockets: 1, framesPerSocket: 1, socketAttempts: 20, messages: 5 });
    // Nothing left from it may run into the quiet figure: neither work still running nor V8's memory reducer,
    // which collects the whole heap 8 s after a burst (a 20-60 ms stall seen 3 s into the quiet figure).
    await settled(target.pid);
    await new Promise((resolve) => setTimeout(resolve, MEMORY_REDUCER_MS));
    await settled(target.pid);
    const quiet = await timeAll(new Promise((resolve) => setTimeout(resolve, seconds * 1000)));
    const start = rssOf(target.pid);
    const watch = watchRss(target.pid);
    const began = performance.now();
    const flooding = floodFromChild(target);
    const loaded = await timeAll(flooding);
    const outcome = await flooding;
    const took = (performance.now() - began) / 1000;
    const peak = watch.stop();
    // After: the lowest RSS within 30 s of the flood's end (memory is given back a moment after), as the load test waits.
    let after = rssOf(target.pid);
    for (let i = 0; i < 120; i += 1) {
      await new Promise((resolve) => setTimeout(resolve, 250));
      after = Math.min(after, rssOf(target.pid));
    }
    const mb = (bytes: number) => `${(bytes / MB).toFixed(0)} MB`;
    console.log(
      `\nFlood from one member (${FULL_FLOOD.sockets} sockets x ${FULL_FLOOD.framesPerSocket} frames of ` +
        `${FULL_FLOOD.imagesPerFrame} x ${FULL_FLOOD.imageBytes / 1e6} MB images, ${FULL_FLOOD.socketAttempts} ` +
        `socket attempts, ${FULL_FLOOD.messages} messages; ${took.toFixed(0)} s${outcome.cutOff ? ', then given up' : ''}; ` +
        `${outcome.refusedSockets} sockets refused; picture messages ${outcome.picturesStored} stored, ` +
        `${outcome.picturesRefused} refused, the rest never taken in)`,
    );
    console.log(`${'server RSS'.padEnd(34)} start ${mb(start)}, peak ${mb(peak)}, after ${mb(after)}`);
    const row = (name: string, r: DeliveryTimes) =>
      console.log(
        `${name.padEnd(34)} p50 ${r.p50.toFixed(1).padStart(7)} ms   p99 ${r.p99.toFixed(1).padStart(7)} ms   (${r.count} messages; ` +
          `slowest ${r.slowest.map(({ at, ms }) => `${ms.toFixed(0)} ms at ${at.toFixed(1)} s`).join(', ')})`,
      );
    row("other members' delivery, quiet", quiet);
    row("other members' delivery, flood", loaded);
  } finally {
    await server.stop();
  }
}
