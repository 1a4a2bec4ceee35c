import { promisify } from 'node:util';
import { gzip as gzipCallback } from 'node:zlib';
import { sql } from 'drizzle-orm';
import type { Database } from '../db/client.js';
import { rowsOf } from '../db/raw.js';
import { MESSAGE_ORDER_LOCK } from '../repositories/message-batch-repository.js';
import { RestoreRefused } from './refused.js';
import { loadChunk, named, type Chunk, type ClubSchema } from './rows.js';
import { qualified, type TableDump } from './snapshot.js';

const gzip = promisify(gzipCallback);

/*
 * The tail of a backup (decision 022): the messages committed after the snapshot began, up to the moment
 * the backup file is whole. Messages only grow and commit in id order (MESSAGE_ORDER_LOCK), so "after the
 * snapshot" is "id above the snapshot's highest". The tail takes that same lock, which waits for any
 * message write under way to commit and holds new ones back, reads the tail, and keeps the lock until the
 * file is synced and renamed: every message acknowledged before `npm run backup` returns is in the file.
 * With the rows a message write stores alongside (its pictures, a bulk send's record and recipients, the
 * writer's read mark). A message of a talk or a member created after the snapshot is left out and counted
 * (the snapshot has not the rows it hangs on); the next backup takes it.
 */

/** What the snapshot saw that the tail is measured against. */
export interface TailAnchor {
  /** The highest message id in the snapshot. */
  messagesUpTo: number;
  conversations: number[];
  users: number[];
}

/** Read inside the snapshot's transaction. */
export async function readAnchor(db: Database): Promise<TailAnchor> {
  const ids = async (table: string) =>
    rowsOf<{ id: number | string }>(await db.execute(sql.raw(`select id from ${table}`))).map((row) =>
      Number(row.id),
    );
  const [top] = rowsOf<{ id: number | string }>(
    await db.execute(sql`select coalesce(max(id), 0) as id from messages`),
  );
  return {
    messagesUpTo: Number(top!.id),
    conversations: await ids('conversations'),
    users: await ids('users'),
  };
}

/** The tail's description in the backup file (`tail.json`, before its rows under `tail/`). */
export interface TailManifest {
  /** When the tail was read: every message acknowledged before the backup returned is in. */
  takenAt: string;
  messagesAfter: number;
  /** Rows per table, `schema.table`, in the order they load. */
  tables: Record<string, number>;
  sequences: Record<string, number>;
  /** Messages of talks or members created after the snapshot, not in this backup. */
  leftOut: number;
}

export interface TailDump {
  manifest: TailManifest;
  tables: TableDump[];
  /** Pictures the tail's rows name, relative to DATA_DIR/media. */
  pictures: string[];
}

/** The tables of the tail, in load order, each with the rows that belong to the kept messages ($1). */
const TAIL_TABLES: { table: string; where: string; onConflict?: string }[] = [
  { table: 'public.messages', where: 'id = any($1)' },
  { table: 'public.media', where: 'message_id = any($1)' },
  { table: 'public.broadcasts', where: 'history_message_id = any($1)' },
  { table: 'public.broadcast_recipients', where: 'message_id = any($1)' },
  {
    table: 'public.conversation_reads',
    where:
      '(conversation_id, user_id) in (select conversation_id, sender_id from messages where id = any($1))',
    // The snapshot's mark is older: the later one wins.
    onConflict:
      'on conflict (conversation_id, user_id) do update set last_read_message_id = greatest(t.last_read_message_id, excluded.last_read_message_id)',
  },
];
const SEQUENCES = ['public.messages', 'public.broadcasts'];

const idList = (ids: number[]) => `'{${ids.join(',')}}'::bigint[]`;

async function dumpWhere(db: Database, table: string, where: string): Promise<TableDump> {
  const rows = rowsOf<{ j: string }>(
    await db.execute(sql.raw(`select row_to_json(t)::text as j from ${qualified(table)} t where ${where}`)),
  );
  const chunks = rows.length > 0 ? [await gzip(rows.map((row) => row.j).join('\n'), { level: 1 })] : [];
  return { name: table, rows: rows.length, chunks };
}

/** Reads the tail; run while the order lock is held (holdMessageWrites). */
async function readTail(db: Database, anchor: TailAnchor): Promise<TailDump> {
  const candidates = rowsOf<{
    id: number | string;
    conversation_id: number;
    sender_id: number | null;
    reply_to_id: number | string | null;
  }>(
    await db.execute(sql`select id, conversation_id, sender_id, reply_to_id from messages
      where id > ${anchor.messagesUpTo} order by id`),
  );
  const conversations = new Set(anchor.conversations);
  const users = new Set(anchor.users);
  const kept: number[] = [];
  const keptSet = new Set<number>();
  for (const row of candidates) {
    const reply = row.reply_to_id === null ? null : Number(row.reply_to_id);
    if (
      conversations.has(row.conversation_id) &&
      (row.sender_id === null || users.has(row.sender_id)) &&
      (reply === null || reply <= anchor.messagesUpTo || keptSet.has(reply))
    ) {
      kept.push(Number(row.id));
      keptSet.add(Number(row.id));
    }
  }
  const tables: TableDump[] = [];
  for (const { table, where } of TAIL_TABLES) {
    tables.push(await dumpWhere(db, table, where.replaceAll('$1', idList(kept))));
  }
  const pictures = rowsOf<{ path: string }>(
    await db.execute(sql.raw(`select path from media where message_id = any(${idList(kept)})`)),
  ).map((row) => row.path);
  const sequences: Record<string, number> = {};
  for (const table of SEQUENCES) {
    const [row] = rowsOf<{ name: string | null; value: string | number | null }>(
      await db.execute(sql`select pg_get_serial_sequence(${table}, 'id') as name,
        (select last_value from pg_sequences where schemaname || '.' || sequencename =
          pg_get_serial_sequence(${table}, 'id')) as value`),
    );
    if (row?.name && row.value !== null) sequences[row.name] = Number(row.value);
  }
  const [now] = rowsOf<{ at: string }>(await db.execute(sql`select to_json(clock_timestamp())#>>'{}' as at`));
  return {
    manifest: {
      takenAt: new Date(now!.at).toISOString(),
      messagesAfter: anchor.messagesUpTo,
      tables: Object.fromEntries(tables.map((table) => [table.name, table.rows])),
      sequences,
      leftOut: candidates.length - kept.length,
    },
    tables,
    pictures,
  };
}

/** The longest message writes are held back for one backup. */
export const MAX_HOLD_MS = 60_000;

/** A tail read with message writes held back; `release` lets them go on (once, when the file is safe). */
export interface HeldTail {
  tail: TailDump;
  release(): Promise<void>;
}

/**
 * Takes the message order lock in a transaction, reads the tail, and keeps the transaction (and the lock)
 * open until `release`. On the embedded database the transaction holds its one session, so every query
 * waits meanwhile, as during the snapshot.
 */
export function holdMessageWrites(db: Database, anchor: TailAnchor): Promise<HeldTail> {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  // Whatever becomes of the backup (its caller gone mid-file, a stuck disk), writes go on after this.
  setTimeout(() => release(), MAX_HOLD_MS).unref();
  return new Promise<HeldTail>((resolve, reject) => {
    const ended = db
      .transaction(async (tx) => {
        const inTx = tx as unknown as Database;
        await inTx.execute(sql.raw(`select pg_advisory_xact_lock(${MESSAGE_ORDER_LOCK})`));
        const tail = await readTail(inTx, anchor);
        resolve({
          tail,
          release: async () => {
            release();
            await ended;
          },
        });
        await released;
      })
      .catch((error: unknown) => {
        reject(error as Error);
        throw error;
      });
    ended.catch(() => {}); // rejected above when the read fails; seen by release's caller otherwise
  });
}

/** Loads the tail's rows into a restored database (in the restore's transaction for the tail). */
export async function loadTail(
  db: Database,
  schema: ClubSchema,
  manifest: TailManifest,
  chunks: AsyncIterable<Chunk>,
): Promise<Record<string, number>> {
  for await (const chunk of chunks) {
    const spec = TAIL_TABLES.find((entry) => entry.table === chunk.table);
    if (!spec)
      throw new RestoreRefused(
        `the backup's tail holds rows of ${named(chunk.table)}, which a tail never has`,
      );
    await loadChunk(db, schema, chunk, spec.onConflict);
  }
  for (const [sequence, value] of Object.entries(manifest.sequences)) {
    await db.execute(sql`select setval(${sequence}::regclass, ${value})`);
  }
  // A talk's activity time moves with every new message (message-batch-repository.ts).
  await db.execute(sql`update conversations c set last_activity_at = t.at
    from (select conversation_id, max(created_at) as at from messages where id > ${manifest.messagesAfter}
      group by 1) t
    where c.id = t.conversation_id and c.last_activity_at < t.at`);
  const [row] = rowsOf<{ n: number | string }>(
    await db.execute(sql`select count(*) as n from messages where id > ${manifest.messagesAfter}`),
  );
  return { 'public.messages': Number(row!.n) };
}
