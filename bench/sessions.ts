// Session checks (issue: "sessions checked at a fraction of a request's cost"): `POST /api/auth` and a
// typical read call, a man's room list (`POST /api/conversations`), each next to a bare Fastify echo
// measured right before it, with autocannon against the real built server; also `/api/auth` without a uid,
// which answers before any session is looked at (the app's own cost of a call), and the embedded database
// with the session and room-list caches off (SESSION_CACHE_MS=0 ROOM_LIST_CACHE_MS=0: what every call cost
// before). The room list is read again and again with nothing changed, which the room-list cache answers
// from memory (services/room-list-cache.ts). On the embedded PGlite and, given BENCH_DATABASE_URL or
// TEST_DATABASE_URL, on PostgreSQL too.
import { load, startBareFastify, startEnishi, type LoadResult } from './lib.js';
import { scratchDatabase } from './socket.js';

const MAN = { id: 'bench-sessions-man', password: 'Bench-pass.1', name: '計測太郎', role: 101 };

async function post<T>(url: string, body: unknown): Promise<T> {
  const reply = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (!reply.ok) throw new Error(`${url}: ${reply.status} ${await reply.text()}`);
  return (await reply.json()) as T;
}

export async function benchSessions(
  seconds: number,
  row: (name: string, result: LoadResult, baseline?: LoadResult) => void,
): Promise<void> {
  const connections = 20;
  const bare = await startBareFastify();
  try {
    console.log(`\nSession checks (closed loop, ${connections} connections)`);
    const bareLoad = async () => {
      const baseline = await load(`${bare.url}/echo`, { ssid: 'x', uid: 1 }, { connections, seconds });
      row('bare Fastify POST /echo', baseline);
      return baseline;
    };

    // "uncached": every call reads its session and its room list from the database, as before both were
    // kept in memory.
    const engines: { name: string; env: NodeJS.ProcessEnv; drop?: () => Promise<void> }[] = [
      { name: 'PGlite uncached', env: { SESSION_CACHE_MS: '0', ROOM_LIST_CACHE_MS: '0' } },
      { name: 'PGlite', env: {} },
    ];
    const postgresUrl = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;
    if (postgresUrl) {
      const scratch = await scratchDatabase(postgresUrl);
      engines.push({ name: 'PostgreSQL', env: { DATABASE_URL: scratch.url }, drop: scratch.drop });
    }
    for (const engine of engines) {
      const enishi = await startEnishi([MAN], engine.env);
      try {
        const login = await post<{ uid: number; session: string }>(`${enishi.url}/api/login`, {
          id: MAN.id,
          password: MAN.password,
        });
        const auth = { ssid: login.session, uid: login.uid };
        const rooms = { ssid: login.session, type: 'staff', page: 0 };
        // The man's room list holds his talk with the desk: a real read, not an empty answer.
        const list = await post<{ rows: unknown[] }>(`${enishi.url}/api/conversations`, rooms);
        if (list.rows.length === 0) throw new Error('the room list is empty');
        // Each load right after its own baseline: on a shared machine the echo's rate drifts within a run.
        const measure = async (name: string, url: string, body: unknown) => {
          const baseline = await bareLoad();
          row(`${engine.name} ${name}`, await load(url, body, { connections, seconds }), baseline);
        };
        // /api/auth without a uid answers before looking at the session: the app's own cost of a call.
        await measure('auth unchecked', `${enishi.url}/api/auth`, { ssid: 'x' });
        await measure('/api/auth', `${enishi.url}/api/auth`, auth);
        await measure('room list', `${enishi.url}/api/conversations`, rooms);
      } finally {
        await enishi.stop();
        await engine.drop?.();
      }
    }
  } finally {
    await bare.stop();
  }
}
