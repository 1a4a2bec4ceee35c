import { randomUUID } from 'node:crypto';
import { ja, type ServerFrame } from '@enishi/contract';
import postgres from 'postgres';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { AckCounter, StreamingClient } from './test/cluster-clients.js';
import { MEMBER, OWNER, startCluster, type Cluster } from './test/cluster.js';
import { firstConversation, loginAs } from './test/http-client.js';
import { startOwnPostgres, startOwnRedis, type OwnPostgres, type OwnRedis } from './test/own-services.js';
import { TestSocket } from './test/socket.js';

/*
 * The services fail and come back (product.md §20): two instances on a PostgreSQL and a Redis of this file's
 * own (initdb and redis-server on spare ports), each stopped for OUTAGE_MS while members chat. Needs the
 * Debian packages postgresql (15), redis-server and haproxy.
 */

const OUTAGE_MS = 10_000;
/** Messages committed while Redis was away reach the other instance's readers within this of its return. */
const AFTER_RETURN_MS = 2000;
/** An instance's own sockets are served within this during an outage. */
const LOCAL_MS = 2000;
/** Every frame is answered (echo or error) within this, outage or not. */
const ANSWER_MS = 5000;
/** How long /readyz may take to see a service go or come back. */
const READY_MS = 5000;
const IN_FLIGHT = 3;

type Frame<T extends ServerFrame['type']> = Extract<ServerFrame, { type: T }>;

const text = (conversationId: number, message: string, clientId = randomUUID()) => ({
  type: 'text',
  conversation_id: conversationId,
  message,
  image: [],
  reply: null,
  announce: false,
  client_id: clientId,
});

interface Readyz {
  status: number;
  down: string[];
}

async function readyz(base: string): Promise<Readyz> {
  const reply = await fetch(`${base}/readyz`);
  const body = (await reply.json()) as { down?: string[] };
  return { status: reply.status, down: body.down ?? [] };
}

/**
 * Asks /readyz every 100 ms until it answers `expected`, for at most READY_MS; returns how long it took. A
 * failed request is asked again, as a load balancer's check would; an instance that died (as the npm release
 * of the PostgreSQL driver made one do, decision 040) never answers, and fails the wait.
 */
async function readyzBecomes(base: string, expected: Readyz): Promise<number> {
  const start = Date.now();
  let last: Readyz | string | undefined;
  while (Date.now() - start < READY_MS) {
    last = await readyz(base).catch((error: unknown) => String((error as Error).cause ?? error));
    if (
      typeof last !== 'string' &&
      last.status === expected.status &&
      last.down.join() === expected.down.join()
    )
      return Date.now() - start;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`/readyz of ${base} answered ${JSON.stringify(last)}, not ${JSON.stringify(expected)}`);
}

const READY: Readyz = { status: 200, down: [] };

describe.skipIf(!process.env.TEST_DATABASE_URL)('outages of PostgreSQL and Redis', () => {
  let pg: OwnPostgres;
  let redis: OwnRedis;
  let cluster: Cluster;
  let a: string;
  let b: string;
  let memberSsid: string;
  let ownerSsid: string;
  let desk: number;

  beforeAll(async () => {
    [pg, redis] = await Promise.all([startOwnPostgres(), startOwnRedis()]);
    cluster = await startCluster(2, redis.url, { databaseUrl: pg.url });
    [a, b] = cluster.instances.map((each) => `http://127.0.0.1:${each.port}`) as [string, string];
    memberSsid = await loginAs(a, MEMBER);
    ownerSsid = await loginAs(a, OWNER);
    desk = await firstConversation(a, memberSsid, 'staff');
  }, 90_000);
  // An instance that dies during an outage (seen once in a fresh-clone CI on a busy machine, PostgreSQL down:
  // its /readyz refused connections) says why in its log: a failed test prints each instance's exit and log end.
  beforeEach(({ onTestFailed }) => {
    onTestFailed(() => {
      for (const [index, { process: server }] of cluster.instances.entries())
        console.error(
          `instance ${index} (exit ${String(server.child.exitCode ?? server.child.signalCode)}), its log's end:\n` +
            server.log().slice(-4000),
        );
    });
  });
  // A test that failed mid-outage leaves its service running for the next.
  afterEach(async () => {
    await Promise.all([redis.start(), pg.start()]);
  });
  afterAll(async () => {
    await cluster?.stop();
    await redis?.stop();
    await pg?.remove();
  });

  it('keeps serving each instance\u2019s sockets while Redis is down, and the others have every message within 2 s of its return', async () => {
    const options = { origin: cluster.origin };
    const member = await TestSocket.session(a, memberSsid, options);
    const staffHere = await TestSocket.session(a, ownerSsid, options);
    const staffThere = await TestSocket.session(b, ownerSsid, options);

    await redis.stop();
    const downAt = Date.now();
    for (const base of [a, b]) await readyzBecomes(base, { status: 503, down: ['redis'] });

    // The member's instance goes on: echoes and its own staff's copies come at once.
    const during: number[] = [];
    for (let i = 0; i < 5; i += 1) {
      const sent = text(desk, `停止中 ${i}`);
      member.send(sent);
      const echo = await member.take<Frame<'message'>>(
        (f) => f.type === 'message' && f.client_id === sent.client_id,
        LOCAL_MS,
      );
      await staffHere.take((f) => f.type === 'message' && f.id === echo.id, LOCAL_MS);
      during.push(echo.id);
    }
    // Logging in works (throttles count on this instance meanwhile), and a phone that reconnects is let in.
    await loginAs(a, MEMBER);
    const late = await TestSocket.session(a, memberSsid, { ...options, last_id: during[0]! - 1 });
    const caughtUp = late.untaken().flatMap((f) => (f.type === 'message' ? [f.id] : []));
    expect(caughtUp).toEqual(during);

    await new Promise((resolve) => setTimeout(resolve, downAt + OUTAGE_MS - Date.now()));
    const seenBeforeReturn = during.filter((id) =>
      staffThere.received.some((f) => f.type === 'message' && f.id === id),
    ).length;
    await redis.start();
    const upAt = Date.now();
    for (const id of during)
      await staffThere.take(
        (f) => f.type === 'message' && f.id === id,
        Math.max(1, upAt + AFTER_RETURN_MS - Date.now()),
      );
    const deliveredAfterMs = Date.now() - upAt;

    // Events that only Redis carries flow again: a read mark from the other instance, then a message.
    const readyAfterMs = Math.max(...(await Promise.all([a, b].map((base) => readyzBecomes(base, READY)))));
    staffThere.send({ type: 'open', conversation_id: desk, conversation_type: 'men' });
    const read = await member.take<Frame<'read'>>(
      (f) => f.type === 'read' && f.last_read_id === during.at(-1),
      AFTER_RETURN_MS,
    );
    expect(read.conversation_id).toBe(desk);
    const fanoutBackMs = Date.now() - upAt;
    const reply = text(desk, 'おかえりなさい');
    staffThere.send(reply);
    await member.take((f) => f.type === 'message' && f.client_id === reply.client_id, AFTER_RETURN_MS);
    process.stdout.write(
      `redis outage: ${seenBeforeReturn}/${during.length} reached the other instance before Redis returned, ` +
        `all ${deliveredAfterMs} ms after; /readyz ready ${readyAfterMs} ms and a read mark across ` +
        `${fanoutBackMs} ms after its return\n`,
    );
    await Promise.all([member, staffHere, staffThere, late].map((socket) => socket.close()));
  }, 60_000);

  it('answers every send while PostgreSQL is down with an error to retry, and stores every acknowledged message once after', async () => {
    const acks = new AckCounter();
    const member = new StreamingClient(a, cluster.origin, memberSsid, desk, IN_FLIGHT, acks.onAck);
    const staff = await TestSocket.session(b, ownerSsid, { origin: cluster.origin });
    member.start();
    await acks.reach(20);

    await pg.stop();
    const downAt = Date.now();
    for (const base of [a, b]) await readyzBecomes(base, { status: 503, down: ['database'] });
    const call = await fetch(`${b}/api/conversations`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ ssid: ownerSsid, type: 'staff', search: '', page: 0 }),
    });
    expect({ status: call.status, body: await call.json() }).toEqual({
      status: 503,
      body: { error: ja.errors.unavailable },
    });
    // Refusals go on through the outage; none is left unanswered.
    const silent = new Set<string>();
    while (Date.now() - downAt < OUTAGE_MS) {
      for (const clientId of member.unanswered(ANSWER_MS)) silent.add(clientId);
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    const refusals = member.refusals.filter(({ at }) => at >= downAt);
    const slowestMs = Math.max(...member.answers.filter(({ at }) => at >= downAt).map(({ ms }) => ms));
    await pg.start();
    const upAt = Date.now();

    expect([...silent]).toEqual([]);
    expect(refusals.length).toBeGreaterThan(0);
    for (const { frame } of refusals)
      expect(frame).toMatchObject({ error: ja.errors.unavailable, retry: true });
    expect(slowestMs).toBeLessThan(ANSWER_MS);
    const acksAtReturn = acks.count;
    await acks.reach(acksAtReturn + 20);
    await member.finish();
    const storedAfterMs = Date.now() - upAt;
    await Promise.all([a, b].map((base) => readyzBecomes(base, READY)));

    // The staff on the other instance has every acknowledged message, live.
    for (const id of member.acked.values())
      await staff.take((f) => f.type === 'message' && f.id === id, 5000);

    const sql = postgres(pg.url, { max: 1 });
    try {
      const rows = await sql<{ client_id: string; ids: number[] }[]>`
        select client_id, array_agg(id order by id) as ids from messages
        where client_id = any(${member.sent}::uuid[]) group by client_id`;
      const stored = new Map(rows.map((row) => [row.client_id, row.ids.map(Number)]));
      for (const clientId of member.sent) expect(stored.get(clientId)).toEqual([member.acked.get(clientId)]);
    } finally {
      await sql.end();
    }
    expect(member.mismatches).toEqual([]);
    process.stdout.write(
      `postgres outage: ${refusals.length} refusals to retry, each frame answered within ${slowestMs} ms; ` +
        `every frame sent was stored once ` +
        `(${member.sent.length}), the last ${storedAfterMs} ms after PostgreSQL returned\n`,
    );
    member.close();
    await staff.close();
  }, 60_000);
});
