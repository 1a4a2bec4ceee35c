// The restore drill (README "Backups and upgrades"): a club of 1,000
// members under 200 messages a second, a backup taken during the load, restored into a fresh DATA_DIR or
// database; every message acknowledged before the backup reported its file written must be there, those
// acknowledged during the backup included (its tail, decision 022). Acknowledgement times next to those of
// the same load outside the backup, in the same run.
import { spawn } from 'node:child_process';
import { mkdtempSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { randomUUID } from 'node:crypto';
import { generateIdentity, identityToRecipient } from 'age-encryption';
import { sql } from 'drizzle-orm';
import type WebSocket from 'ws';
import { openDatabase } from '../server/src/db/client.js';
import { rowsOf } from '../server/src/db/raw.js';
import { freePort } from '../server/src/test/process.js';
import { benchEnv, repoRoot, spawnServer } from './lib.js';
import { connect, scratchDatabase, seedClub, stop, waitHealthy, type Club } from './socket.js';

/** Times from Date.now(): the same clock as the database's, on this machine. */
interface Sent {
  at: number;
  ackedAt: number | null;
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
}

/**
 * Runs a server script of the build to its end; its last line of output is JSON. `printedAt` is when its
 * first output came (the backup prints its summary once the file is written, before it lets writes go on).
 */
function runScript(
  script: string,
  args: string[],
  env: NodeJS.ProcessEnv,
): Promise<Record<string, unknown> & { printedAt: number }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(repoRoot, 'server/dist/scripts', script), ...args], {
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    let printedAt = 0;
    child.stdout.on('data', (chunk: Buffer) => {
      printedAt ||= Date.now();
      out += chunk.toString();
    });
    child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
    child.on('exit', (code) => {
      if (code === 0) {
        resolve({
          ...(JSON.parse(out.trim().split('\n').pop() ?? '{}') as Record<string, unknown>),
          printedAt,
        });
      } else reject(new Error(`${script} failed: ${err}`));
    });
  });
}

/** A folder for the backup file, and an age key the backup is encrypted to (its identity on file). */
async function backupTarget() {
  const folder = mkdtempSync(join(tmpdir(), 'enishi-drill-'));
  const file = join(folder, 'club.backup');
  const identity = await generateIdentity();
  const key = { identityFile: join(folder, 'key.txt'), recipient: await identityToRecipient(identity) };
  writeFileSync(key.identityFile, `${identity}\n`, { mode: 0o600 });
  return { file, key };
}

/** Every member's chat socket, 50 at a time; their own messages' echoes mark those sent as acknowledged. */
async function connectMembers(
  members: Club['members'],
  port: number,
  origin: string,
  sent: Map<string, Sent>,
) {
  const onMessage = (frame: Record<string, unknown>) => {
    if (frame.type !== 'message' || frame.own !== true) return;
    const id = /drill (\S+)/.exec(String(frame.message))?.[1];
    const message = id ? sent.get(id) : undefined;
    if (message && message.ackedAt === null) message.ackedAt = Date.now();
  };
  const sockets: WebSocket[] = [];
  for (let index = 0; index < members.length; index += 50) {
    const batch = members.slice(index, index + 50);
    sockets.push(
      ...(await Promise.all(
        batch.map((member) => connect(`ws://127.0.0.1:${port}/ws/chat`, origin, member.session, onMessage)),
      )),
    );
  }
  return sockets;
}

/** `rate` messages a second from random members into their talks, until the returned stop is called. */
function sendLoad(sockets: WebSocket[], members: Club['members'], rate: number, sent: Map<string, Sent>) {
  let sending = true;
  const start = performance.now();
  let count = 0;
  const tick = setInterval(() => {
    const due = Math.floor(((performance.now() - start) / 1000) * rate);
    for (; sending && count < due; count += 1) {
      const index = Math.floor(Math.random() * sockets.length);
      const id = randomUUID();
      sent.set(id, { at: Date.now(), ackedAt: null });
      sockets[index]?.send(
        JSON.stringify({
          type: 'text',
          conversation_id: members[index]!.conversation,
          conversation_type: 'staff',
          message: `drill ${id}`,
          image: [],
          reply: null,
          announce: false,
          client_id: randomUUID(),
        }),
      );
    }
  }, 5);
  return () => {
    sending = false;
    clearInterval(tick);
  };
}

/** Restored into a fresh DATA_DIR (or a fresh database), then read straight from it: the drill's ids found. */
async function restoreAndRead(file: string, identityFile: string, restoreUrl?: string) {
  const target = benchEnv(await freePort(), restoreUrl ? { DATABASE_URL: restoreUrl } : {});
  const restoreStart = performance.now();
  await runScript('restore.js', ['--identity', identityFile, file], target);
  const restoreSeconds = (performance.now() - restoreStart) / 1000;
  const restored = await openDatabase({
    databaseUrl: restoreUrl,
    pgliteDir: restoreUrl ? undefined : join(target.DATA_DIR!, 'db'),
  });
  const present = new Set(
    rowsOf<{ body: string }>(
      await restored.db.execute(sql`select body from messages where body like 'drill %'`),
    ).map((row) => row.body.slice('drill '.length)),
  );
  await restored.close();
  return { present, restoreSeconds };
}

async function drill(label: string, rate: number, databaseUrl?: string, restoreUrl?: string) {
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const env = benchEnv(port, databaseUrl ? { DATABASE_URL: databaseUrl } : {});
  const club = seedClub(env, { members: 1000, staff: 2 });
  const server = spawnServer(env);
  const sent = new Map<string, Sent>();
  let sockets: WebSocket[] = [];
  const { file, key } = await backupTarget();
  let window = { start: 0, end: 0 };
  let backup: Record<string, unknown> & { printedAt: number } = { printedAt: 0 };
  let stopSending = () => {};
  try {
    await waitHealthy(origin);
    sockets = await connectMembers(club.members, port, origin, sent);
    // 200 messages a second from random members: 5 s before the backup, during it, and 5 s after it.
    stopSending = sendLoad(sockets, club.members, rate, sent);
    await new Promise((resolve) => setTimeout(resolve, 5_000));
    window = { start: Date.now(), end: 0 };
    // Encrypted to an age key, as every backup is by default (decision 032): its cost is in the figures.
    backup = await runScript('backup.js', [file], { ...env, BACKUP_RECIPIENTS: key.recipient });
    window.end = backup.printedAt;
    await new Promise((resolve) => setTimeout(resolve, 5_000));
    stopSending();
    const deadline = performance.now() + 30_000;
    while ([...sent.values()].some((message) => message.ackedAt === null) && performance.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  } finally {
    stopSending();
    for (const socket of sockets) socket.terminate();
    sockets = [];
    await stop(server);
  }

  const { present, restoreSeconds } = await restoreAndRead(file, key.identityFile, restoreUrl);
  printDrill(label, { sent, window, backup, present, size: statSync(file).size, restoreSeconds });
}

interface DrillRun {
  sent: Map<string, Sent>;
  /** From the backup command's start to its printed summary (Date.now()). */
  window: { start: number; end: number };
  backup: Record<string, unknown>;
  /** Ids of the drill's messages found in the restored database. */
  present: Set<string>;
  size: number;
  restoreSeconds: number;
}

/** The drill's figures; fails the run when a message acknowledged before the backup's end is missing. */
function printDrill(label: string, { sent, window, backup, present, size, restoreSeconds }: DrillRun) {
  const acked = [...sent.entries()].filter(([, message]) => message.ackedAt !== null);
  const snapshotAt = Date.parse(String(backup.snapshotAt));
  const tailAt = Date.parse(String(backup.tailAt));
  const before = acked.filter(([, message]) => message.ackedAt! < window.start);
  const during = acked.filter(
    ([, message]) => message.ackedAt! >= window.start && message.ackedAt! <= window.end,
  );
  const afterSnapshot = during.filter(([, message]) => message.ackedAt! >= snapshotAt);
  const latency = (list: typeof acked) => list.map(([, message]) => message.ackedAt! - message.at);
  const outside = acked.filter(
    ([, message]) => message.ackedAt! < window.start || message.ackedAt! > window.end,
  );
  const missing = (list: typeof acked) => list.filter(([id]) => !present.has(id)).length;
  const lost = missing(before) + missing(during);
  const ms = (list: typeof acked) =>
    `${percentile(latency(list), 50).toFixed(1)}/${percentile(latency(list), 99).toFixed(1)} ms`;
  const after = (at: number) => `${((at - window.start) / 1000).toFixed(1)} s`;
  console.log(`\n${label}`);
  console.log(
    `backup during the load: ${((window.end - window.start) / 1000).toFixed(1)} s (snapshot at ` +
      `${after(snapshotAt)}, tail read at ${after(tailAt)}: ${String(backup.tailMessages)} messages, ` +
      `${String(backup.leftOut)} left out; writes held ${window.end - tailAt} ms from the tail to the summary), ` +
      `${(size / 1e6).toFixed(1)} MB, ` +
      `${String(backup.rows)} rows; restore ${restoreSeconds.toFixed(1)} s`,
  );
  console.log(
    `acknowledged before the backup: ${before.length}, present after the restore ${before.length - missing(before)}`,
  );
  console.log(
    `acknowledged during the backup: ${during.length} (after its snapshot began ${afterSnapshot.length}), ` +
      `present after the restore ${during.length - missing(during)}${lost ? `  (${lost} LOST)` : '  (all)'}`,
  );
  console.log(
    `ack p50/p99 during the backup ${ms(during)}, outside it ${ms(outside)} ` +
      `(${sent.size} sent, ${acked.length} acknowledged)`,
  );
  if (lost > 0) process.exitCode = 1;
}

/** The drill on the embedded database, and on PostgreSQL when a URL is given. */
export async function benchBackupDrill({ rate, postgresUrl }: { rate: number; postgresUrl?: string }) {
  console.log(`\nRestore drill (1,000 members, ${rate} msg/s, backup taken during the load)`);
  await drill('embedded PGlite (backup through the running server)', rate);
  if (!postgresUrl) return;
  const live = await scratchDatabase(postgresUrl);
  const fresh = await scratchDatabase(postgresUrl);
  try {
    await drill('PostgreSQL (one snapshot, then the tail)', rate, live.url, fresh.url);
  } finally {
    await live.drop();
    await fresh.drop();
  }
}
