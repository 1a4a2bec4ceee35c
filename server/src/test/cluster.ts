import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Redis } from 'ioredis';
import { startBalancer, type Balancer } from '../scripts/balancer.js';
import { createPostgresDatabase } from './database.js';
import { freePort, runScript, startServerProcess, type ServerProcess } from './process.js';

export const OWNER = { id: 'owner', password: 'Owner-pass1' };
export const MEMBER = { id: 'cluster-member', password: 'Member-pass1' };

export interface Instance {
  port: number;
  process: ServerProcess;
}

/** Instances of `server/src/main.ts` on one PostgreSQL database, one Redis database and one DATA_DIR, behind HAProxy. */
export interface Cluster {
  balancer: Balancer;
  /** PUBLIC_ORIGIN of every instance: the balancer's address. */
  origin: string;
  instances: Instance[];
  /** SIGKILLs instance `index`, waits for it to die, and starts it again on the same port. */
  killAndRestart(index: number): Promise<void>;
  /** SIGKILLs instance `index` and waits for it to die. */
  kill(index: number): Promise<void>;
  /** Starts instance `index` again on its port. */
  restart(index: number): Promise<void>;
  stop(): Promise<void>;
}

export interface ClusterOptions {
  /** Instance `index` reaches Redis at this URL instead (e.g. through a relay a test can hold). */
  redisUrlOf?: (index: number) => string;
  /** An empty PostgreSQL database of the test's own; by default, a new one on TEST_DATABASE_URL's server. */
  databaseUrl?: string;
}

export async function startCluster(
  count: number,
  redisUrl: string,
  { redisUrlOf = () => redisUrl, databaseUrl }: ClusterOptions = {},
): Promise<Cluster> {
  const cleanups: (() => Promise<unknown>)[] = [];
  const stop = async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
  };
  try {
    const balancerPort = await freePort();
    const origin = `http://127.0.0.1:${balancerPort}`;
    const env = await sharedStores(origin, redisUrl, databaseUrl, cleanups);
    await runScript(
      'server/src/scripts/create-user.ts',
      ['--id', MEMBER.id, '--password', MEMBER.password, '--name', '複数 太郎', '--role', '101'],
      env,
    );
    const instances: Instance[] = [];
    const start = async (port: number, index: number) =>
      startServerProcess({ ...env, REDIS_URL: redisUrlOf(index), PORT: String(port) });
    cleanups.push(async () => {
      for (const { process: server } of instances)
        if (server.child.exitCode === null && server.child.signalCode === null) {
          server.child.kill('SIGKILL');
          await server.exited;
        }
    });
    // The first alone: it migrates the database before the others look at it.
    for (let i = 0; i < count; i += 1) {
      const port = await freePort();
      instances.push({ port, process: await start(port, i) });
    }
    const balancer = await startBalancer(
      balancerPort,
      instances.map((each) => each.port),
      { quiet: true },
    );
    cleanups.push(() => balancer.stop());
    const kill = async (index: number) => {
      const instance = instances[index]!;
      instance.process.child.kill('SIGKILL');
      await instance.process.exited;
    };
    const restart = async (index: number) => {
      const instance = instances[index]!;
      instance.process = await start(instance.port, index);
    };
    return {
      balancer,
      origin,
      instances,
      kill,
      restart,
      killAndRestart: async (index) => {
        await kill(index);
        await restart(index);
      },
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}

/**
 * What every instance shares, made empty for the run: a DATA_DIR, a PostgreSQL database (unless given) and
 * the Redis database; the environment that names them. Each is undone by a cleanup pushed to `cleanups`.
 */
async function sharedStores(
  origin: string,
  redisUrl: string,
  databaseUrl: string | undefined,
  cleanups: (() => Promise<unknown>)[],
): Promise<NodeJS.ProcessEnv> {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'enishi-cluster-'));
  cleanups.push(() => rm(dataDir, { recursive: true, force: true }));
  let url = databaseUrl;
  if (!url) {
    const created = await createPostgresDatabase();
    cleanups.push(created.drop);
    url = created.url;
  }
  // Rate-limit counters left by an earlier run would still be counting.
  const redis = new Redis(redisUrl);
  await redis.flushdb();
  await redis.quit();
  return {
    ...process.env,
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    DATABASE_URL: url,
    REDIS_URL: redisUrl,
    PUBLIC_ORIGIN: origin,
    TRUST_PROXY: '127.0.0.1',
    OWNER_ID: OWNER.id,
    OWNER_PASSWORD: OWNER.password,
    WEB_DIST: path.join(dataDir, 'no-web'),
  };
}
