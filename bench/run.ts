// `npm run bench`: figures for the closing notes, each next to a baseline measured in the same run.
// Only 127.0.0.1 is loaded, and every load is bounded in time.
import { benchBackupDrill } from './backup-drill.js';
import { benchBulkSend } from './bulk-send.js';
import { benchEntryList } from './entrylist.js';
import { benchTables } from './tables.js';
import { benchLighthouse } from './lighthouse.js';
import { benchTalkOpen } from './talk-open.js';
import { benchCalls } from './calls.js';
import { benchCapacity } from './capacity.js';
import { benchCpuPerMessage } from './cpu-per-message.js';
import { alternateWithFloor, clusterFigures, printFloorPairs, type FloorPair } from './cluster.js';
import { benchIdle } from './idle.js';
import { benchKill } from './kill.js';
import { benchFlood } from './flood.js';
import { benchPush } from './push.js';
import { benchInitialJs } from './initial-js.js';
import { benchSearch } from './search.js';
import { benchReports } from './reports.js';
import { benchSessions } from './sessions.js';
import { bareWsFigures } from './bare-ws-figures.js';
import { durableCommitFloor, enishiFigures, printSocketFigures, scratchDatabase } from './socket.js';
import { load, startBareFastify, startEnishi } from './lib.js';

const seconds = Number(process.env.BENCH_HTTP_SECONDS ?? 5);
/** Database `db` of the Redis at `url` (the benchmark empties it), or undefined without a URL. */
const redisDb = (url: string | undefined, db: number) =>
  url ? new URL(`/${db}`, url).toString() : undefined;
/** One load's line; with a baseline, also its share of the baseline's req/s. */
const row = (
  name: string,
  r: { rps: number; p50: number; p99: number; errors: number; non2xx: number },
  baseline?: { rps: number },
) =>
  console.log(
    `${name.padEnd(34)} ${r.rps.toFixed(0).padStart(7)} req/s   p50 ${String(r.p50).padStart(4)} ms   p99 ${String(r.p99).padStart(4)} ms` +
      (baseline ? `   ${((100 * r.rps) / baseline.rps).toFixed(0).padStart(3)} % of bare` : '') +
      (r.errors || r.non2xx ? `   (errors ${r.errors}, non-2xx ${r.non2xx})` : ''),
  );

console.log(`Enishi benchmark (${seconds} s per load, 127.0.0.1 only)\n`);
// BENCH_ONLY=socket runs only the chat socket section (for working on it); a list (js,lighthouse) runs those.
const only = process.env.BENCH_ONLY?.split(',').map((name) => name.trim());
const section = (name: string) => !only || only.includes(name);

// 1. HTTP: login and session check against a bare Fastify route.
if (section('http')) {
  const bare = await startBareFastify();
  const member = { id: 'bench-man', password: 'Bench-pass.1', name: '計測太郎', role: 101 };
  const enishi = await startEnishi([member], {
    // The benchmark logs in far more often than a person could; lift the per-account and per-address limits.
    LOGIN_FAILURES_PER_ACCOUNT: '1000000',
    LOGIN_ATTEMPTS_PER_ADDRESS: '1000000',
  });
  try {
    console.log('HTTP (closed loop)');
    row(
      'bare Fastify POST /echo',
      await load(`${bare.url}/echo`, { ssid: 'x', uid: 1 }, { connections: 20, seconds }),
    );
    row(
      'POST /api/login (Argon2id)',
      await load(
        `${enishi.url}/api/login`,
        { id: member.id, password: member.password },
        { connections: 4, seconds },
      ),
    );
    const login = (await (
      await fetch(`${enishi.url}/api/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ id: member.id, password: member.password }),
      })
    ).json()) as { uid: number; session: string };
    row(
      'POST /api/auth',
      await load(
        `${enishi.url}/api/auth`,
        { ssid: login.session, uid: login.uid },
        { connections: 20, seconds },
      ),
    );
  } finally {
    await Promise.all([bare.stop(), enishi.stop()]);
  }
}

// 1b. Session checks: /api/auth and the room list next to a bare Fastify echo (BENCH_ONLY=sessions).
if (section('sessions')) {
  await benchSessions(seconds, row);
}

if (section('js')) await benchInitialJs();

if (section('lighthouse')) {
  // 3. Lighthouse on the public pages next to a hello-world page.
  await benchLighthouse();
}

if (section('talk')) {
  // 3b. Opening a man's talk at 4× CPU: forced layouts and reads cold, and warm from the device (issue 48).
  await benchTalkOpen();
}

if (section('socket')) {
  // 4. The chat socket: 1,000 members and 10 staff connected, 500 messages a second from random members,
  //    each delivered to the sender and every staff socket; against a bare ws server in the same run.
  const sizes = { members: Number(process.env.BENCH_MEMBERS ?? 1000), staff: 10 };
  const socketLoad = {
    rate: Number(process.env.BENCH_RATE ?? 500),
    seconds: Number(process.env.BENCH_SECONDS ?? 10),
  };
  console.log(
    `\nChat socket (${sizes.members} members + ${sizes.staff} staff, ${socketLoad.rate} msg/s for ${socketLoad.seconds} s)`,
  );
  // BENCH_ENGINES=postgres (or pglite) measures one engine only, when working on it.
  const engines = (process.env.BENCH_ENGINES ?? 'pglite,postgres').split(',');
  const rows = [];
  let club;
  let floor;
  let pairs: FloorPair[] = [];
  if (engines.includes('pglite')) {
    const embedded = await enishiFigures('Enishi, embedded PGlite', sizes, socketLoad);
    rows.push(embedded.figures);
    club = embedded.club;
  }
  const postgresUrl = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;
  if (postgresUrl && engines.includes('postgres')) {
    const scratch = await scratchDatabase(postgresUrl);
    try {
      const measured = await enishiFigures('Enishi, PostgreSQL', sizes, socketLoad, scratch.url);
      rows.push(measured.figures);
      club ??= measured.club;
      // With Redis: the same database and club, one instance and then two behind HAProxy.
      const redisUrl = process.env.BENCH_REDIS_URL ?? redisDb(process.env.TEST_REDIS_URL, 10);
      if (redisUrl) {
        rows.push(await clusterFigures(1, measured.club, socketLoad, scratch.url, redisUrl));
        // Two instances and the floor (bare ws + one insert) by turns, so each pair saw the same machine.
        pairs = await alternateWithFloor(measured.club, socketLoad, scratch.url, redisUrl, {
          pairs: Number(process.env.BENCH_PAIRS ?? 3),
        });
        rows.push(...pairs.flatMap((pair) => [pair.two, pair.floor]));
      } else rows.push(await bareWsFigures(club, socketLoad, scratch.url));
      floor = await durableCommitFloor(scratch.url);
    } finally {
      await scratch.drop();
    }
  }
  if (club) rows.push(await bareWsFigures(club, socketLoad));
  printSocketFigures(rows);
  if (pairs.length > 0) printFloorPairs(pairs, socketLoad);
  if (floor) {
    console.log(
      `PostgreSQL durable commit, one row, one client: p50 ${floor.p50.toFixed(2)} ms, p99 ${floor.p99.toFixed(2)} ms ` +
        '(the floor under every stored message)',
    );
  }
}

if (section('idle')) {
  // 5a. Idle sockets on one instance next to the same load without them (issue 29); PostgreSQL when given.
  const postgresUrl = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;
  const scratch = postgresUrl ? await scratchDatabase(postgresUrl) : undefined;
  try {
    await benchIdle({
      idle: Number(process.env.BENCH_IDLE ?? 18_000),
      members: Number(process.env.BENCH_MEMBERS ?? 1000),
      rate: Number(process.env.BENCH_RATE ?? 500),
      seconds: Number(process.env.BENCH_SECONDS ?? 10),
      databaseUrl: scratch?.url,
    });
  } finally {
    await scratch?.drop();
  }
}

if (section('capacity')) {
  // 5c. The rate one instance and two behind HAProxy keep under a fixed p99 (issue 29): PostgreSQL and Redis.
  const postgresUrl = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;
  const redisUrl = process.env.BENCH_REDIS_URL ?? process.env.TEST_REDIS_URL;
  if (postgresUrl && redisUrl) {
    const scratches = [await scratchDatabase(postgresUrl), await scratchDatabase(postgresUrl)];
    try {
      await benchCapacity({
        one: { databaseUrl: scratches[0]!.url, redisUrl: redisDb(redisUrl, 8)! },
        two: { databaseUrl: scratches[1]!.url, redisUrl: redisDb(redisUrl, 9)! },
        p99Ms: Number(process.env.BENCH_CAPACITY_P99_MS ?? 50),
        seconds: Number(process.env.BENCH_CAPACITY_SECONDS ?? 5),
        budgetSeconds: Number(process.env.BENCH_CAPACITY_BUDGET_SECONDS ?? 180),
      });
    } finally {
      for (const scratch of scratches) await scratch.drop();
    }
  } else console.log('\nCapacity: skipped (needs BENCH_DATABASE_URL or TEST_DATABASE_URL, and a Redis URL)');
}

if (section('cpu')) {
  // 5d. CPU time per 1,000 delivered messages over every process involved, one instance and two behind
  //     HAProxy (issue 48); docs/capacity.md sizes clubs from it. Needs PostgreSQL and Redis.
  await benchCpuPerMessage({
    postgresUrl: process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL,
    redisUrls: [11, 12].map((db) => redisDb(process.env.BENCH_REDIS_URL ?? process.env.TEST_REDIS_URL, db)),
    sizes: { members: Number(process.env.BENCH_MEMBERS ?? 1000), staff: 10 },
    load: {
      rate: Number(process.env.BENCH_RATE ?? 500),
      seconds: Number(process.env.BENCH_CPU_SECONDS ?? 5),
    },
    runs: Number(process.env.BENCH_CPU_RUNS ?? 3),
    loadsPerRun: Number(process.env.BENCH_CPU_LOADS ?? 3),
  });
}

if (section('kill')) {
  // 5b. Several instances while one keeps dying (decision 019): needs PostgreSQL and Redis.
  const postgresUrl = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;
  const redisUrl = process.env.BENCH_REDIS_URL ?? redisDb(process.env.TEST_REDIS_URL, 3);
  if (postgresUrl && redisUrl)
    await benchKill({
      postgresUrl,
      redisUrl,
      members: Number(process.env.BENCH_KILL_MEMBERS ?? 1000),
      rate: Number(process.env.BENCH_KILL_RATE ?? 200),
      kills: Number(process.env.BENCH_KILLS ?? 10),
    });
  else console.log('\nKill: skipped (needs BENCH_DATABASE_URL or TEST_DATABASE_URL, and a Redis URL)');
}

if (section('bulk')) {
  // 5. A bulk send to 20,000 members, 5,000 of them connected: stored for all, and received by every connected
  //    one; on PGlite, and on PostgreSQL with Redis when there are URLs.
  await benchBulkSend({
    members: 20_000,
    connected: 5000,
    postgresUrl: process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL,
    redisUrl: process.env.BENCH_REDIS_URL ?? redisDb(process.env.TEST_REDIS_URL, 13),
  });
}

if (section('flood')) {
  // 6. One member flooding the server: its memory, and other members' delivery before and during it.
  await benchFlood();
}

if (section('push')) {
  // 6. Pushes for a bulk send to 5,000 subscribed members, and chat round trips during it next to before it.
  await benchPush({ members: 5000 });
}

if (section('search')) {
  // 6. Message search over 1,000,000 messages (p99) next to a plain read of a talk, in the same run.
  await benchSearch({
    postgresUrl: process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL,
    messages: Number(process.env.BENCH_SEARCH_MESSAGES ?? 1_000_000),
    pgliteMessages: Number(process.env.BENCH_SEARCH_PGLITE_MESSAGES ?? 1_000_000),
  });
}

if (only?.includes('reports')) {
  // Reports (product.md §2.9): a month's report over 1,000,000 messages next to a count(*) of the month. Only
  // when asked (BENCH_ONLY=reports): seeding takes about 2 minutes.
  await benchReports({
    postgresUrl: process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL,
    messages: Number(process.env.BENCH_REPORT_MESSAGES ?? 1_000_000),
  });
}

if (section('entrylist')) {
  // 7. The women's list: 10,000 women, three filters, next to a primary-key read in the same run.
  await benchEntryList({ women: 10_000 });
}

if (section('tables')) {
  // The back office's member tables: a page of 50 of 10,000 men (server) and its render (jsdom), next to a
  // primary-key read and plain lists in the same run.
  await benchTables({ men: 10_000 });
}

if (section('calls')) {
  // 8. Voice calls: calling -> the callee's ring, accept -> connected, p50/p99 over BENCH_CALLS calls (50).
  await benchCalls({ calls: Number(process.env.BENCH_CALLS ?? 50) });
}

if (section('backup')) {
  // 9. The restore drill: a backup taken under 200 msg/s from 1,000 members, restored; every message
  //    acknowledged before the backup reported its file is there, and acknowledgements during it next to
  //    those outside it.
  await benchBackupDrill({
    rate: Number(process.env.BENCH_DRILL_RATE ?? 200),
    postgresUrl: process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL,
  });
}
