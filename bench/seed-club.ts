// Seeds a benchmark club straight through the server's own repositories: members with their desk
// conversations, staff, and a logged-in session for each. One password hash is shared, because 1,000
// Argon2id hashes would measure the seeding, not the server. Prints JSON to stdout.
// Usage (server stopped when embedded): DATA_DIR=... [DATABASE_URL=...] tsx bench/seed-club.ts MEMBERS STAFF
import { openDatabase } from '../server/src/db/client.js';
import { hashPassword } from '../server/src/lib/passwords.js';
import { UserRepository } from '../server/src/repositories/user-repository.js';
import { SessionRepository } from '../server/src/repositories/session-repository.js';
import { SessionService } from '../server/src/services/session-service.js';
import { systemClock } from '../server/src/lib/clock.js';
import { join } from 'node:path';
import { eq, sql } from 'drizzle-orm';
import { conversations } from '../server/src/db/schema.js';

const members = Number(process.argv[2] ?? 1000);
const staff = Number(process.argv[3] ?? 10);
const handle = await openDatabase({
  databaseUrl: process.env.DATABASE_URL,
  pgliteDir: process.env.DATABASE_URL ? undefined : join(process.env.DATA_DIR ?? './data', 'db'),
});
await handle.migrate();
const users = new UserRepository(handle.db);
const sessions = new SessionService(new SessionRepository(handle.db), systemClock);
const passwordHash = await hashPassword('Bench-pass.1');

async function makeOne(prefix: string, index: number, role: number) {
  const user = await users.create({
    loginId: `${prefix}-${index}`,
    name: `${prefix === 'staff' ? '計測スタッフ' : '計測会員'}${index}`,
    passwordHash,
    role,
    rank: role === 101 ? 1 : 0,
  });
  if (!user) throw new Error(`could not create ${prefix}-${index}`);
  const desk = await handle.db
    .select({ id: conversations.id })
    .from(conversations)
    .where(eq(conversations.memberId, user.id));
  return { uid: user.id, session: await sessions.start(user.id, 'bench'), conversation: desk[0]?.id ?? 0 };
}

/** `count` people, 20 at a time (PostgreSQL's pool works on several; the embedded database takes turns). */
async function make(prefix: string, count: number, role: number) {
  const made: Awaited<ReturnType<typeof makeOne>>[] = [];
  for (let start = 0; start < count; start += 20) {
    const indexes = Array.from({ length: Math.min(20, count - start) }, (_, offset) => start + offset);
    made.push(...(await Promise.all(indexes.map((index) => makeOne(prefix, index, role)))));
  }
  return made;
}

const result = { members: await make('member', members, 101), staff: await make('staff', staff, 3) };
// Statistics for the new rows now, so that the database's own analyzing does not land in a measured run.
await handle.db.execute(sql`vacuum analyze`);
await handle.close();
process.stdout.write(`${JSON.stringify(result)}\n`);
