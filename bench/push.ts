// Push notifications under a bulk send: 5,000 members, each with a push subscription at a local HTTPS push
// service (the test receiver: it checks VAPID and decrypts every push), one bulk send to all of them. Measures
// how long until every push is handed to the receiver, and a member's chat round trip (send, own echo) while
// that happens next to the same figure just before it, in the same run. Bounded in members and time.
import { randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { eq } from 'drizzle-orm';
import WebSocket from 'ws';
import { openDatabase } from '../server/src/db/client.js';
import { conversations, pushSubscriptions } from '../server/src/db/schema.js';
import { PushReceiver } from '../server/src/test/push-receiver.js';
import { seed } from './bulk-seed.js';
import { deadline } from './bulk-send.js';
import { startEnishi } from './lib.js';

/** Gives every member a subscription at the receiver; returns the first member's desk talk. */
async function subscribeAll(dataDir: string, uids: number[], receiver: PushReceiver): Promise<number> {
  const database = await openDatabase({ pgliteDir: join(dataDir, 'db') });
  try {
    for (let start = 0; start < uids.length; start += 500) {
      const rows = uids.slice(start, start + 500).map((uid) => {
        const { endpoint, keys } = receiver.subscriber(`m${uid}`).toJSON();
        return { endpoint, userId: uid, p256dh: keys.p256dh, auth: keys.auth };
      });
      await database.db.insert(pushSubscriptions).values(rows);
    }
    const [desk] = await database.db
      .select({ id: conversations.id })
      .from(conversations)
      .where(eq(conversations.memberId, uids[0]!));
    return desk!.id;
  } finally {
    await database.close();
  }
}

/** A member's socket that sends to their desk talk and times each message until its own echo. */
async function pinger(url: string, session: string, desk: number) {
  const ws = new WebSocket(`${url.replace(/^http/, 'ws')}/ws/chat`, {
    origin: url,
    perMessageDeflate: false,
  });
  const echoes = new Map<string, () => void>();
  const ready = new Promise<void>((resolve) => {
    ws.on('message', (data) => {
      const frame = JSON.parse(data.toString()) as { type: string; client_id?: string; error?: string };
      if (frame.type === 'ready') resolve();
      if (frame.type === 'error') throw new Error(`chat socket refused: ${frame.error}`);
      if (frame.type === 'message' && frame.client_id) echoes.get(frame.client_id)?.();
    });
  });
  await new Promise((resolve) => ws.once('open', resolve));
  ws.send(JSON.stringify({ type: 'session', session, endpoint: null, conversation_id: null, last_id: null }));
  await deadline(ready, 30_000, 'pinger ready');
  const once = async (): Promise<number> => {
    const clientId = randomUUID();
    const echoed = new Promise<void>((resolve) => echoes.set(clientId, resolve));
    const started = performance.now();
    ws.send(
      JSON.stringify({
        type: 'text',
        conversation_id: desk,
        message: 'ping',
        image: [],
        reply: null,
        announce: false,
        client_id: clientId,
      }),
    );
    await deadline(echoed, 30_000, 'echo');
    echoes.delete(clientId);
    return performance.now() - started;
  };
  return { once, close: () => ws.terminate() };
}

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))] ?? 0;
};

export async function benchPush(options: { members?: number; pings?: number; timeoutMs?: number } = {}) {
  const members = Math.min(options.members ?? 5000, 20_000);
  const pings = options.pings ?? 200;
  const timeoutMs = options.timeoutMs ?? 300_000;
  const dataDir = mkdtempSync(join(tmpdir(), 'enishi-bench-push-'));
  const receiver = await PushReceiver.start();
  const seeded = await seed({ pgliteDir: join(dataDir, 'db') }, members, 1);
  const desk = await subscribeAll(dataDir, seeded.uids, receiver);
  // The child server trusts the receiver's certificate the way an operator would trust a private CA.
  const server = await startEnishi([], {
    DATA_DIR: dataDir,
    PUSH_ALLOWED_HOSTS: receiver.allowedHost,
    NODE_EXTRA_CA_CERTS: receiver.certPath,
    // The pinger's round trips, one after another, are far above a member's fair use (10 a second, 30 at
    // once): this measures latency, not the limit.
    CHAT_MESSAGES_PER_SECOND: '100000',
    CHAT_MESSAGE_BURST: '100000',
  });
  const post = (name: string, body: unknown) =>
    fetch(`${server.url}/api/${name}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
  const member = await pinger(server.url, seeded.memberSessions[0]!, desk);
  try {
    const key = (await (await post('pushkey', { ssid: seeded.staffSession })).json()) as {
      publicKey: string;
    };
    receiver.publicKey = key.publicKey;
    // The member's own pings push nobody (staff have no subscription here), so the quiet figure is clean.
    const quiet: number[] = [];
    for (let i = 0; i < pings; i += 1) quiet.push(await member.once());

    const sentAt = performance.now();
    let allPushedAt = 0;
    const pushed = deadline(receiver.waitForTotal(members), timeoutMs, 'pushes').then(() => {
      allPushedAt = performance.now();
    });
    const reply = await post('messages/send', {
      ssid: seeded.staffSession,
      users: seeded.uids,
      message: '【プッシュベンチ】今月のイベントのお知らせです。',
      image: [],
      type: 1,
    });
    if (!reply.ok) throw new Error(`bulk send failed: ${reply.status}`);
    const storedMs = performance.now() - sentAt;
    const during: number[] = [];
    while (allPushedAt === 0) during.push(await member.once());
    await pushed;

    const ms = (value: number) => `${value.toFixed(0).padStart(6)} ms`;
    console.log(`\nPush (${members} subscribed members, one bulk send, local HTTPS push service)`);
    console.log(`${'bulk send stored (reply)'.padEnd(40)} ${ms(storedMs)}`);
    console.log(
      `${`all ${receiver.received.length} pushes handed over`.padEnd(40)} ${ms(allPushedAt - sentAt)}`,
    );
    console.log(
      `${'pushes refused by the receiver'.padEnd(40)} ${String(receiver.problems.length).padStart(6)}`,
    );
    const row = (name: string, values: number[]) =>
      console.log(
        `${name.padEnd(40)} p50 ${percentile(values, 50).toFixed(1).padStart(6)} ms   p99 ${percentile(values, 99).toFixed(1).padStart(6)} ms   (${values.length} messages)`,
      );
    row('chat round trip, no push load', quiet);
    row('chat round trip, during the pushes', during);
  } finally {
    member.close();
    await server.stop();
    await receiver.close();
  }
}

// `tsx bench/push.ts` runs it alone.
if (import.meta.url === `file://${process.argv[1]}`) {
  await benchPush({ members: Number(process.env.BENCH_MEMBERS ?? 5000) });
}
