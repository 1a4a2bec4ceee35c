// The women's list (product.md §19.2): 10,000 women with profiles, /api/entrylist with three filters and the
// unfiltered first page (which counts every listed woman), p50/p99 over sequential requests, next to a plain
// primary-key read (/api/getuser of oneself) in the same run, on the embedded PGlite and (given
// BENCH_DATABASE_URL or TEST_DATABASE_URL) PostgreSQL. Requests go through the whole HTTP stack in process
// (Fastify inject), so the figures are the server's, not the network's.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { buildApp } from '../server/src/app.js';
import { loadConfig } from '../server/src/config.js';
import { openDatabase } from '../server/src/db/client.js';
import { memberProfiles, users } from '../server/src/db/schema.js';
import { hashPassword } from '../server/src/lib/passwords.js';
import { timed } from './lib.js';
import { scratchDatabase } from './socket.js';

const CHUNK = 1000;

/** Seeds `women` women with varied profiles and one man; answers the man's login. */
async function seed(db: Awaited<ReturnType<typeof openDatabase>>['db'], women: number) {
  const hash = await hashPassword('Bench-pass.1');
  for (let start = 0; start < women; start += CHUNK) {
    const batch = Array.from({ length: Math.min(CHUNK, women - start) }, (_, i) => ({
      loginId: `bench-w-${start + i}`,
      name: `計測 花子${start + i}`,
      passwordHash: hash,
      role: 201,
    }));
    const rows = await db.insert(users).values(batch).returning({ id: users.id });
    await db.insert(memberProfiles).values(
      rows.map(({ id }, i) => {
        const n = start + i;
        return {
          userId: id,
          birthDate: `${1975 + (n % 30)}-0${1 + (n % 9)}-1${n % 10}`,
          height: 145 + (n % 35),
          bust: 72 + (n % 25),
          area: n % 10,
          womenRank: n % 9,
          sake: n % 5,
          golf: n % 4,
          bloodType: 1 + (n % 4),
          languages: n % 3 === 0 ? [1, 2] : [1],
          entryType: n % 11 === 0 ? 3 : n % 3,
        };
      }),
    );
  }
  await db.insert(users).values({ loginId: 'bench-man', name: '計測 太郎', passwordHash: hash, role: 101 });
}

async function measure(label: string, databaseUrl: string | undefined, women: number, requests: number) {
  const dataDir = mkdtempSync(join(tmpdir(), 'enishi-bench-entry-'));
  const database = await openDatabase(databaseUrl ? { databaseUrl } : { pgliteDir: join(dataDir, 'db') });
  try {
    await database.migrate();
    const seedStart = performance.now();
    await seed(database.db, women);
    const seedMs = performance.now() - seedStart;
    const config = loadConfig({ LOG_LEVEL: 'silent', DATA_DIR: dataDir, WEB_DIST: join(dataDir, 'none') });
    const app = await buildApp(config, { database });
    try {
      const post = async (url: string, payload: object) => {
        const reply = await app.inject({ method: 'POST', url, payload });
        return reply;
      };
      const login = (await post('/api/login', { id: 'bench-man', password: 'Bench-pass.1' })).json<{
        uid: number;
        session: string;
      }>();
      const query = { age_min: 25, age_max: 35, height_min: 155, area: [1, 6] };
      const probe = (
        await post('/api/entrylist', { ssid: login.session, page: 0, perPage: 20, query })
      ).json<{
        total: number;
      }>();
      // Warm both paths (prepared plans, JIT) before timing.
      for (let i = 0; i < 20; i++) {
        await post('/api/entrylist', { ssid: login.session, page: i % 5, perPage: 20, query });
        await post('/api/getuser', { ssid: login.session, uid: login.uid });
      }
      const pk = await timed(
        requests,
        async () => (await post('/api/getuser', { ssid: login.session, uid: login.uid })).statusCode,
      );
      const list = await timed(
        requests,
        async () =>
          (
            await post('/api/entrylist', {
              ssid: login.session,
              page: Math.floor(Math.random() * 5),
              perPage: 20,
              query,
            })
          ).statusCode,
      );
      // The first page with no filter at all: every listed woman counted.
      const unfiltered = await timed(
        requests,
        async () => (await post('/api/entrylist', { ssid: login.session, page: 0, perPage: 20 })).statusCode,
      );
      const ms = (value: number) => `${value.toFixed(1).padStart(6)} ms`;
      console.log(
        `${label.padEnd(22)} entrylist (3 filters, ${probe.total} hits) p50 ${ms(list.p50)} p99 ${ms(list.p99)}   ` +
          `getuser (primary key) p50 ${ms(pk.p50)} p99 ${ms(pk.p99)}   (seeded ${women} in ${(seedMs / 1000).toFixed(1)} s)`,
      );
      console.log(
        `${''.padEnd(22)} entrylist (no filter, first page)  p50 ${ms(unfiltered.p50)} p99 ${ms(unfiltered.p99)}`,
      );
      return { list, unfiltered, pk };
    } finally {
      await app.close();
    }
  } finally {
    await database.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** The women's list with `women` women, `requests` timed requests per path. */
export async function benchEntryList({ women = 10_000, requests = 500 } = {}) {
  console.log(`\nWomen's list (${women} women, ${requests} sequential requests each, in process)`);
  await measure('Enishi, embedded PGlite', undefined, women, requests);
  const postgresUrl = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;
  if (postgresUrl) {
    const scratch = await scratchDatabase(postgresUrl);
    try {
      await measure('Enishi, PostgreSQL', scratch.url, women, requests);
    } finally {
      await scratch.drop();
    }
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await benchEntryList({
    women: Number(process.env.BENCH_WOMEN ?? 10_000),
    requests: Number(process.env.BENCH_REQUESTS ?? 500),
  });
}
