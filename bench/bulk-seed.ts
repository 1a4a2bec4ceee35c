// The club of the bulk-send bench (bench/bulk-send.ts, and bench/push.ts): a staff member and many men, seeded
// in batches straight into the database, with the baseline of one plain insert of as many rows.
import { performance } from 'node:perf_hooks';
import { sql } from 'drizzle-orm';
import { openDatabase } from '../server/src/db/client.js';
import { conversations, sessions, users } from '../server/src/db/schema.js';
import { hashPassword } from '../server/src/lib/passwords.js';
import { newSessionToken, sha256Hex } from '../server/src/lib/tokens.js';
import { SESSION_ABSOLUTE_MS } from '../server/src/services/session-service.js';

const CHUNK = 1000;
/** The bench's message: the bulk send's text, and the plain insert's. */
export const TEXT = '【一括送信ベンチ】今月のイベントのお知らせです。';

export type Where = { pgliteDir: string } | { databaseUrl: string };

/**
 * Seeds the staff member and `members` men with one shared password hash (one Argon2 run, not thousands),
 * each man with his desk talk as UserRepository.create makes it, and sessions for the staff member and the
 * connected men, all in batched inserts. Then times the baseline: one statement inserting `members` rows.
 */
export async function seed(where: Where, members: number, connected: number) {
  const database = await openDatabase(where);
  try {
    await database.migrate();
    const db = database.db;
    const passwordHash = await hashPassword('Bench-pass.1');
    const now = new Date();
    const [staff] = await db
      .insert(users)
      .values({
        loginId: 'bench-owner',
        name: '計測オーナー',
        passwordHash,
        role: 2,
        createdAt: now,
        updatedAt: now,
      })
      .returning({ id: users.id });

    const uids: number[] = [];
    for (let start = 0; start < members; start += CHUNK) {
      const count = Math.min(CHUNK, members - start);
      const rows = await db
        .insert(users)
        .values(
          Array.from({ length: count }, (_, i) => ({
            loginId: `bench-man-${start + i}`,
            name: `計測 ${start + i}`,
            passwordHash,
            role: 101,
            rank: [1, 2, 3, 4, 6][(start + i) % 5]!,
            createdAt: now,
            updatedAt: now,
          })),
        )
        .returning({ id: users.id });
      await db.insert(conversations).values(
        rows.map((row) => ({
          kind: 'desk' as const,
          memberId: row.id,
          lastActivityAt: now,
          createdAt: now,
        })),
      );
      uids.push(...rows.map((row) => row.id));
    }

    // Sessions as SessionService.start stores them (the hash of the token), in batches.
    const tokens = [staff!.id, ...uids.slice(0, connected)].map((uid) => ({ uid, token: newSessionToken() }));
    for (let start = 0; start < tokens.length; start += CHUNK) {
      await db.insert(sessions).values(
        tokens.slice(start, start + CHUNK).map(({ uid, token }) => ({
          id: sha256Hex(token),
          userId: uid,
          userAgent: 'bench',
          createdAt: now,
          lastSeenAt: now,
          expiresAt: new Date(now.getTime() + SESSION_ABSOLUTE_MS),
        })),
      );
    }

    await db.execute(sql`create table bench_plain_insert (id bigserial primary key, conversation_id int not null,
      sender_id int not null, body text not null, client_id uuid not null, created_at timestamptz not null)`);
    const started = performance.now();
    await db.execute(sql`insert into bench_plain_insert (conversation_id, sender_id, body, client_id, created_at)
      select g, ${staff!.id}, ${TEXT}, gen_random_uuid(), now() from generate_series(1, ${members}) as g`);
    const plainInsertMs = performance.now() - started;
    await db.execute(sql`drop table bench_plain_insert`);

    return {
      uids,
      staffSession: tokens[0]!.token,
      memberSessions: tokens.slice(1).map(({ token }) => token),
      plainInsertMs,
    };
  } finally {
    await database.close();
  }
}
