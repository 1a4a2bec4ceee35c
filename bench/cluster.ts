// Chat socket figures with REDIS_URL: one instance, and two behind HAProxy (deploy/haproxy.cfg), on one
// PostgreSQL database and one Redis database, with the same load and club as the other socket rows.
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { startBalancer } from '../server/src/scripts/balancer.js';
import { freePort } from '../server/src/test/process.js';
import { benchEnv, repoRoot } from './lib.js';
import { drive, stop, waitHealthy, type Club, type SocketFigures } from './socket.js';

/**
 * Starts `instances` built servers on `databaseUrl` (already seeded with `club`) sharing `redisUrl`, behind
 * HAProxy when there are several, and drives the socket load through the balancer. Memory and event-loop
 * figures are the first instance's; with several they are not per connection, so they are left out.
 */
export async function clusterFigures(
  instances: number,
  club: Club,
  load: { rate: number; seconds: number },
  databaseUrl: string,
  redisUrl: string,
): Promise<SocketFigures> {
  const redis = new Redis(redisUrl);
  await redis.flushdb(); // counters of an earlier run would still be counting
  await redis.quit();
  const balancerPort = await freePort();
  const ports = await Promise.all(Array.from({ length: instances }, () => freePort()));
  const origin = `http://127.0.0.1:${instances > 1 ? balancerPort : ports[0]}`;
  const inspectPort = await freePort();
  const children: ChildProcess[] = [];
  let balancer: { stop(): Promise<void> } | undefined;
  try {
    for (const [index, port] of ports.entries()) {
      const env = benchEnv(port, {
        DATABASE_URL: databaseUrl,
        REDIS_URL: redisUrl,
        PUBLIC_ORIGIN: origin,
        TRUST_PROXY: '127.0.0.1',
      });
      const args = index === 0 ? [`--inspect=127.0.0.1:${inspectPort}`] : [];
      children.push(
        spawn(process.execPath, [...args, join(repoRoot, 'server/dist/main.js')], { env, stdio: 'ignore' }),
      );
      // One at a time: the first checks the migrations before the others look at the database.
      await waitHealthy(`http://127.0.0.1:${port}`);
    }
    if (instances > 1) balancer = await startBalancer(balancerPort, ports, { quiet: true });
    const label = instances > 1 ? `Enishi, ${instances} × PG + Redis` : 'Enishi, PG + Redis';
    const figures = await drive(
      label,
      `${origin.replace(/^http/, 'ws')}/ws/chat`,
      origin,
      inspectPort,
      club,
      load,
    );
    if (instances > 1) return { ...figures, rssPerConnection: NaN, retainedPerConnection: NaN };
    return figures;
  } finally {
    await balancer?.stop();
    await Promise.all(children.map(stop));
  }
}
