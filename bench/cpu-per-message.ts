// CPU time per 1,000 delivered messages, summed over every process a message passes through (issue 48,
// outcome 3): one instance, and two behind HAProxy, under the socket section's load. docs/capacity.md turns
// the figures into a sizing table; it also says what is counted.
import { readFileSync } from 'node:fs';
import { Redis } from 'ioredis';
import { freePort } from '../server/src/test/process.js';
import { startCluster, type Cluster, type OrderCounts } from './cluster.js';
import { benchEnv, cpuMs, median, quietLoad } from './lib.js';
import { scratchDatabase } from './postgres.js';
import { openSession, seedClub, type LoadSession, type SocketFigures } from './socket.js';

const GROUPS = ['instances', 'HAProxy', 'Redis', 'PG backends', 'PG shared'] as const;
type Group = (typeof GROUPS)[number];
type Sql = Awaited<ReturnType<typeof openSql>>;

/** One load's CPU time per group (ms), with what the load's sockets counted. */
interface LoadCpu {
  ms: Record<Group, number>;
  figures: SocketFigures;
  /** Processes that were gone by the end of the load (their CPU in it is not counted). */
  lost: number;
  /** This process's, driving the sockets (not in the total). */
  generatorMs: number;
  /** Gaps in the instances' message order during the load: waited for their publish, read from the database. */
  gaps?: OrderCounts;
  /** Transactions on the side's database during the load, single statements included (pg_stat_database,
   * which may lag a second). */
  commits?: number;
}

/** One run: the load with the median total of `loads` loads, on `instances` instances. */
interface Run {
  instances: number;
  load: LoadCpu;
  /** Every load's total, ms per 1,000 delivered, in order. */
  totals: number[];
  loadAverage: string;
  /** The first instance's memory per idle socket (RSS growth, and heap + external after a GC), bytes. */
  rssPerSocket: number;
  retainedPerSocket: number;
  /** The first instance's RSS after the loads, bytes. */
  instanceRss: number;
}

interface RunOptions {
  sizes: { members: number; staff: number };
  load: { rate: number; seconds: number };
  runs: number;
  loadsPerRun: number;
}

export type CpuOptions = RunOptions & {
  postgresUrl: string | undefined;
  /** Two Redis databases (the section empties them): one instance's and the two's. */
  redisUrls: (string | undefined)[];
};

async function openSql(url: string) {
  const { default: postgres } = await import('postgres');
  return postgres(url, { max: 1, onnotice: () => {} });
}

/** Field `index` of /proc/<pid>/stat counted after the command's name (0 is the state, field 3). */
const statField = (pid: number, index: number) =>
  Number(readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ')[index]);

/**
 * The processes of each group now. PG backends: those pg_stat_activity lists on the bench database (the
 * instances' pools, autovacuum there). PG shared: the postmaster and its background processes (WAL writer,
 * checkpointer...), which serve every database of the server, so others' work lands there too.
 */
async function processGroups(cluster: Cluster, sql: Sql, redisPid: number, database: string) {
  const rows = await sql<{ pid: number; datname: string | null; backend_type: string }[]>`
    select pid, datname, backend_type from pg_stat_activity where pid <> pg_backend_pid()`;
  const shared = rows.filter((row) => row.datname === null && row.backend_type !== 'client backend');
  const postmaster = shared[0] ? statField(shared[0].pid, 1) : undefined;
  return {
    instances: cluster.pids,
    HAProxy: cluster.balancerPid ? [cluster.balancerPid] : [],
    Redis: [redisPid],
    'PG backends': rows.filter((row) => row.datname === database).map((row) => row.pid),
    'PG shared': [...shared.map((row) => row.pid), ...(postmaster ? [postmaster] : [])],
  } satisfies Record<Group, number[]>;
}

/** Each process's CPU time so far (ms); those already gone are left out. */
function readCpu(pids: number[]): Map<number, number> {
  const times = new Map<number, number>();
  for (const pid of pids) {
    try {
      times.set(pid, cpuMs(pid));
    } catch {
      // Exited between the listing and the reading.
    }
  }
  return times;
}

/** Runs one load and sums each group's CPU time during it; a process born during the load counts whole. */
async function measureLoad(
  run: () => Promise<SocketFigures>,
  groups: () => Promise<Record<Group, number[]>>,
): Promise<LoadCpu> {
  const first = await groups();
  const before = readCpu(Object.values(first).flat());
  const generator = process.cpuUsage();
  const figures = await run();
  const own = process.cpuUsage(generator);
  const last = await groups();
  const after = readCpu([...Object.values(first).flat(), ...Object.values(last).flat()]);
  const ms = Object.fromEntries(GROUPS.map((group) => [group, 0])) as Record<Group, number>;
  let lost = 0;
  for (const group of GROUPS) {
    for (const pid of new Set([...first[group], ...last[group]])) {
      const end = after.get(pid);
      if (end === undefined) lost += 1;
      else ms[group] += end - (before.get(pid) ?? 0);
    }
  }
  return { ms, figures, lost, generatorMs: (own.user + own.system) / 1000 };
}

const total = (load: LoadCpu) => GROUPS.reduce((sum, group) => sum + load.ms[group], 0);
/** ms of CPU per 1,000 messages delivered to the sockets (each message reaches every staff socket). */
const perThousand = (load: LoadCpu, ms: number) => (1000 * ms) / Math.max(1, load.figures.delivered);

/** One setup kept up for the whole section: its instances on a database and a Redis database of their own. */
interface Side {
  instances: number;
  cluster: Cluster;
  session: LoadSession;
  database: string;
}

/** Seeds a club into `databaseUrl`, starts `instances` instances on it, connects the club and warms up. */
async function openSide(instances: number, databaseUrl: string, redisUrl: string, options: RunOptions) {
  const club = seedClub(benchEnv(await freePort(), { DATABASE_URL: databaseUrl }), options.sizes);
  const cluster = await startCluster(instances, databaseUrl, redisUrl);
  try {
    const session = await openSession(
      cluster.label,
      cluster.wsUrl,
      cluster.origin,
      cluster.inspectPort,
      club,
    );
    // One second of the load first, not counted: code compiled, pools and statements ready.
    await session.run({ rate: options.load.rate, seconds: 1 }, false);
    return { instances, cluster, session, database: new URL(databaseUrl).pathname.slice(1) } satisfies Side;
  } catch (error) {
    await cluster.stop();
    throw error;
  }
}

/** `loadsPerRun` loads on one side; the run is the load with the median total. */
async function oneRun(side: Side, options: RunOptions, sql: Sql, redisPid: number): Promise<Run> {
  const loadAverage = await quietLoad();
  const { cluster, session } = side;
  const loads: LoadCpu[] = [];
  const commits = async () =>
    Number(
      (
        await sql<{ n: string }[]>`
        select xact_commit::text as n from pg_stat_database where datname = ${side.database}`
      )[0]?.n,
    );
  for (let index = 0; index < options.loadsPerRun; index += 1) {
    const [gapsBefore, commitsBefore] = [await cluster.orderCounts(), await commits()];
    const load = await measureLoad(
      () => session.run(options.load, false),
      () => processGroups(cluster, sql, redisPid, side.database),
    );
    const gapsAfter = await cluster.orderCounts();
    load.gaps = { waited: gapsAfter.waited - gapsBefore.waited, read: gapsAfter.read - gapsBefore.read };
    load.commits = (await commits()) - commitsBefore;
    loads.push(load);
  }
  const totals = loads.map((load) => perThousand(load, total(load)));
  return {
    instances: side.instances,
    load: loads[totals.indexOf(median(totals))]!,
    totals,
    loadAverage,
    rssPerSocket: session.rssPerConnection,
    retainedPerSocket: session.retainedPerConnection,
    instanceRss: statField(cluster.pids[0]!, 21) * 4096,
  };
}

/** The Redis server's process id (INFO server), for its CPU time. */
async function redisProcess(url: string): Promise<number> {
  const redis = new Redis(url);
  try {
    const info = await redis.info('server');
    return Number(/process_id:(\d+)/.exec(info)?.[1]);
  } finally {
    await redis.quit();
  }
}

/** What PostgreSQL keeps per stored message (the messages table with its indexes and TOAST), for sizing. */
async function printStored(sql: Sql) {
  const [row] = await sql<{ count: number; bytes: string }[]>`
    select count(*)::int as count, pg_total_relation_size('messages')::text as bytes from messages`;
  const perMessage = Number(row!.bytes) / Math.max(1, row!.count);
  console.log(
    `PostgreSQL: ${row!.count} messages stored, ${perMessage.toFixed(0)} bytes each (table and indexes)`,
  );
}

/**
 * One instance and two behind HAProxy, each on a scratch database and a Redis database of its own, both kept
 * up with their club connected, loaded by turns (runTurns); or a line saying why not.
 */
export async function benchCpuPerMessage({ postgresUrl, redisUrls, ...rest }: CpuOptions): Promise<void> {
  const [oneRedis, twoRedis] = redisUrls;
  if (!postgresUrl || !oneRedis || !twoRedis) {
    console.log(
      '\nCPU per message: skipped (needs BENCH_DATABASE_URL or TEST_DATABASE_URL, and a Redis URL)',
    );
    return;
  }
  const scratches = [await scratchDatabase(postgresUrl), await scratchDatabase(postgresUrl)] as const;
  const sql = await openSql(scratches[0].url);
  const sides: Side[] = [];
  try {
    const { sizes, load } = rest;
    console.log(
      `\nCPU per 1,000 delivered messages (${sizes.members} members + ${sizes.staff} staff, ${load.rate} msg/s ` +
        `for ${load.seconds} s, each message delivered to every staff socket; a run is the median of ` +
        `${rest.loadsPerRun} loads; every process: docs/capacity.md)`,
    );
    sides.push(await openSide(1, scratches[0].url, oneRedis, rest));
    sides.push(await openSide(2, scratches[1].url, twoRedis, rest));
    printCpuTable(await runTurns(sides, rest, sql, await redisProcess(oneRedis)));
    await printStored(sql);
  } finally {
    for (const side of sides) side.session.close();
    await Promise.all(sides.map((side) => side.cluster.stop()));
    await sql.end();
    for (const scratch of scratches) await scratch.drop();
  }
}

/** The runs: one instance and two by turns, the first of each turn alternating. */
async function runTurns(sides: Side[], options: RunOptions, sql: Sql, redisPid: number): Promise<Run[]> {
  const runs: Run[] = [];
  for (let index = 0; index < options.runs; index += 1) {
    for (const side of index % 2 === 0 ? sides : [...sides].reverse()) {
      const run = await oneRun(side, options, sql, redisPid);
      const line = run.load.figures;
      console.log(
        `run ${index + 1}, ${side.instances} instance${side.instances > 1 ? 's' : ''}: load average ` +
          `${run.loadAverage} before; loads ${run.totals.map((each) => each.toFixed(0)).join(', ')} ms per ` +
          `1,000; the median one sent ${line.sent}, acked ${line.acked}, delivered ${line.delivered}, p99 ` +
          `${line.p99.toFixed(1)} ms, order gaps ${run.load.gaps?.waited} waited, ${run.load.gaps?.read} read, ` +
          `${run.load.commits} transactions` +
          (run.load.lost ? `, ${run.load.lost} processes gone before the end` : ''),
      );
      runs.push(run);
    }
  }
  return runs;
}

const cell = (value: number) => (Number.isFinite(value) ? value.toFixed(0) : '—').padStart(7);
const ratioCell = (value: number) => (Number.isFinite(value) ? value.toFixed(2) : '—').padStart(7);

/** Per group and in all: each run's ms per 1,000 delivered, one instance, two, and two/one. */
export function printCpuTable(runs: Run[]) {
  const ones = runs.filter((run) => run.instances === 1);
  const twos = runs.filter((run) => run.instances === 2);
  const heads = (prefix: string) => ones.map((_, index) => `${prefix}${index + 1}`.padStart(7)).join('');
  console.log(
    `${'CPU ms per 1,000 delivered'.padEnd(30)}${heads('one r')}   ${heads('two r')}   ${heads('2/1 r')}` +
      '   (r: run; one: 1 instance; two: 2 behind HAProxy)',
  );
  const row = (name: string, value: (run: Run) => number) => {
    const one = ones.map(value);
    const two = twos.map(value);
    console.log(
      `${name.padEnd(30)}${one.map(cell).join('')}   ${two.map(cell).join('')}   ` +
        two.map((each, index) => ratioCell(each / one[index]!)).join(''),
    );
  };
  for (const group of GROUPS) row(group, (run) => perThousand(run.load, run.load.ms[group]));
  row('total', (run) => perThousand(run.load, total(run.load)));
  row('load generator (not in total)', (run) => perThousand(run.load, run.load.generatorMs));
  const perMessage = (run: Run) => perThousand(run.load, total(run.load));
  const within = twos.filter((two, index) => perMessage(two) <= 1.3 * perMessage(ones[index]!)).length;
  console.log(`two instances within 1.3x of one per message in ${within} of ${twos.length} runs`);
  console.log(
    `one instance's memory per idle socket: RSS ${(median(ones.map((run) => run.rssPerSocket)) / 1024).toFixed(1)} KB, ` +
      `heap+external ${(median(ones.map((run) => run.retainedPerSocket)) / 1024).toFixed(1)} KB; its RSS after ` +
      `the loads with ${runs[0]?.load.figures.clients ?? 0} sockets ${(median(ones.map((run) => run.instanceRss)) / 2 ** 20).toFixed(0)} MB`,
  );
}
