// Chat socket figures with REDIS_URL: one instance, and two behind HAProxy (deploy/haproxy.cfg), on one
// PostgreSQL database and one Redis database, with the same load and club as the other socket rows.
import type { ChildProcess } from 'node:child_process';
import { Redis } from 'ioredis';
import { startBalancer } from '../server/src/scripts/balancer.js';
import { freePort } from '../server/src/test/process.js';
import { startBareWs } from './bare-ws-figures.js';
import { benchEnv, spawnServer } from './lib.js';
import {
  drive,
  openSession,
  stop,
  waitHealthy,
  type Club,
  type LoadSession,
  type SocketFigures,
} from './socket.js';

/** The token the bench reads each instance's /metrics with. */
const METRICS_TOKEN = 'bench-metrics-token-0123456789';

/** Instances started for a load, reached through `origin` (HAProxy's when there are several). */
export interface Cluster {
  label: string;
  origin: string;
  wsUrl: string;
  /** The first instance's inspector (memory, event-loop delay, CPU profile). */
  inspectPort: number;
  /** The instances' process ids (for their CPU time). */
  pids: number[];
  /** HAProxy's process id, when there are several instances. */
  balancerPid?: number;
  /** What each instance's MessageOrder did so far (its /metrics), summed over the instances. */
  orderCounts(): Promise<OrderCounts>;
  stop(): Promise<void>;
}

/** Gaps in the message order that waited for their publish, and those read from the database. */
export interface OrderCounts {
  waited: number;
  read: number;
}

/** One counter of the Prometheus text, summed over its labels matching `labels`. */
function counter(text: string, name: string, labels: string): number {
  let sum = 0;
  for (const line of text.split('\n')) {
    if (line.startsWith(`${name}{`) && line.includes(labels)) sum += Number(line.split(' ').pop());
  }
  return sum;
}

/**
 * Starts `instances` built servers on `databaseUrl` (already seeded) sharing `redisUrl`, behind HAProxy
 * when there are several, one at a time (the first checks the migrations before the others look).
 */
export async function startCluster(
  instances: number,
  databaseUrl: string,
  redisUrl: string,
): Promise<Cluster> {
  const redis = new Redis(redisUrl);
  await redis.flushdb(); // counters of an earlier run would still be counting
  await redis.quit();
  const balancerPort = await freePort();
  const ports = await Promise.all(Array.from({ length: instances }, () => freePort()));
  const origin = `http://127.0.0.1:${instances > 1 ? balancerPort : ports[0]}`;
  const inspectPort = await freePort();
  const children: ChildProcess[] = [];
  let balancer: { pid: number; stop(): Promise<void> } | undefined;
  const stopAll = async () => {
    await balancer?.stop();
    await Promise.all(children.map(stop));
  };
  try {
    for (const [index, port] of ports.entries()) {
      const env = benchEnv(port, {
        DATABASE_URL: databaseUrl,
        REDIS_URL: redisUrl,
        PUBLIC_ORIGIN: origin,
        TRUST_PROXY: '127.0.0.1',
        METRICS_TOKEN,
      });
      const args = index === 0 ? [`--inspect=127.0.0.1:${inspectPort}`] : [];
      children.push(spawnServer(env, args));
      await waitHealthy(`http://127.0.0.1:${port}`);
    }
    if (instances > 1) balancer = await startBalancer(balancerPort, ports, { quiet: true });
  } catch (error) {
    await stopAll();
    throw error;
  }
  return {
    label: instances > 1 ? `Enishi, ${instances} × PG + Redis` : 'Enishi, PG + Redis',
    origin,
    wsUrl: `${origin.replace(/^http/, 'ws')}/ws/chat`,
    inspectPort,
    pids: children.map((child) => child.pid!),
    balancerPid: balancer?.pid,
    async orderCounts() {
      const texts = await Promise.all(
        ports.map(async (port) => {
          const reply = await fetch(`http://127.0.0.1:${port}/metrics`, {
            headers: { authorization: `Bearer ${METRICS_TOKEN}` },
          });
          return reply.text();
        }),
      );
      const gaps = (outcome: string) =>
        texts.reduce(
          (sum, text) => sum + counter(text, 'enishi_message_order_gaps_total', `"${outcome}"`),
          0,
        );
      return { waited: gaps('waited'), read: gaps('read') };
    },
    stop: stopAll,
  };
}

/**
 * Starts `instances` servers (startCluster) and drives the socket load through them. Memory and event-loop
 * figures are the first instance's; with several they are not per connection, so they are left out.
 */
export async function clusterFigures(
  instances: number,
  club: Club,
  load: { rate: number; seconds: number },
  databaseUrl: string,
  redisUrl: string,
): Promise<SocketFigures> {
  const cluster = await startCluster(instances, databaseUrl, redisUrl);
  try {
    const figures = await drive(
      cluster.label,
      cluster.wsUrl,
      cluster.origin,
      cluster.inspectPort,
      club,
      load,
    );
    if (instances > 1) return { ...figures, rssPerConnection: NaN, retainedPerConnection: NaN };
    return figures;
  } finally {
    await cluster.stop();
  }
}

/** One turn of the floor and one of two instances, back to back. */
export interface FloorPair {
  floor: SocketFigures;
  two: SocketFigures;
  /** The two instances' MessageOrder during their load. */
  gaps: OrderCounts;
}

/**
 * Issue 25: two instances behind HAProxy against the durable floor (bare ws + one durable insert per
 * message, as in the table) on a machine shared with other work. Both stay up with the club connected to
 * each, and their loads take turns, `pairs` times, the first of each pair alternating, so that a pair's two
 * figures saw the same few seconds of the machine; each pair's ratio is reported, none is dropped.
 */
export async function alternateWithFloor(
  club: Club,
  load: { rate: number; seconds: number },
  databaseUrl: string,
  redisUrl: string,
  { pairs }: { pairs: number },
): Promise<FloorPair[]> {
  const bare = await startBareWs(club, databaseUrl);
  const cluster = await startCluster(2, databaseUrl, redisUrl).catch(async (error: unknown) => {
    await bare.stop();
    throw error;
  });
  const sessions: LoadSession[] = [];
  try {
    const floorSession = await openSession(bare.label, bare.wsUrl, bare.origin, bare.inspectPort, bare.club);
    sessions.push(floorSession);
    const twoSession = await openSession(
      cluster.label,
      cluster.wsUrl,
      cluster.origin,
      cluster.inspectPort,
      club,
    );
    sessions.push(twoSession);
    const twoRun = async () => {
      const before = await cluster.orderCounts();
      const figures = await twoSession.run(load);
      const after = await cluster.orderCounts();
      return {
        figures: { ...figures, rssPerConnection: NaN, retainedPerConnection: NaN },
        gaps: { waited: after.waited - before.waited, read: after.read - before.read },
      };
    };
    const results: FloorPair[] = [];
    for (let index = 0; index < pairs; index += 1) {
      if (index % 2 === 0) {
        const floor = await floorSession.run(load);
        const two = await twoRun();
        results.push({ floor, two: two.figures, gaps: two.gaps });
      } else {
        const two = await twoRun();
        const floor = await floorSession.run(load);
        results.push({ floor, two: two.figures, gaps: two.gaps });
      }
    }
    return results;
  } finally {
    for (const session of sessions) session.close();
    await Promise.all([bare.stop(), cluster.stop()]);
  }
}

/** Each pair's p99 ratio to the floor, and in how many pairs it is within 2× (issue 25.5). */
export function printFloorPairs(pairs: FloorPair[], load: { rate: number; seconds: number }): void {
  console.log(
    `\nTwo instances behind HAProxy against the floor (bare ws + one insert), ${pairs.length} pairs of ` +
      `${load.rate} msg/s for ${load.seconds} s, by turns (issue 25: p99 within 2x of the floor's)`,
  );
  let within = 0;
  for (const [index, { floor, two, gaps }] of pairs.entries()) {
    const ratio = two.p99 / floor.p99;
    if (ratio <= 2) within += 1;
    const first = index % 2 === 0 ? 'floor first' : 'two first';
    console.log(
      `pair ${index + 1} (${first}): p99 ${two.p99.toFixed(1)} / ${floor.p99.toFixed(1)} ms = ${ratio.toFixed(2)}x` +
        `   p50 ${two.p50.toFixed(1)} / ${floor.p50.toFixed(1)} ms = ${(two.p50 / floor.p50).toFixed(2)}x` +
        `   CPU busy ${(two.machineBusy * 100).toFixed(0)}% / ${(floor.machineBusy * 100).toFixed(0)}%` +
        `   gaps in the order: ${gaps.waited} waited for their publish, ${gaps.read} read from the database`,
    );
  }
  console.log(`within 2x in ${within} of ${pairs.length} pairs`);
}
