import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MIGRATIONS_FOLDER } from '../db/client.js';
import { runMigrations } from '../db/migrations.js';
import { InProcessFanout } from '../bus/fanout.js';
import { Readiness } from '../services/readiness.js';
import { createTestContext, type TestContext } from '../test/app.js';
import { openTestDatabase } from '../test/database.js';

/**
 * The migrations of this build and one more, as the next release would bring them: `0099_next`, adding a
 * column, with the `-- breaks: previous` line when `breaks` (docs/releases.md).
 */
function nextReleaseMigrations(breaks: boolean): string {
  const folder = mkdtempSync(path.join(tmpdir(), 'enishi-next-release-'));
  cpSync(MIGRATIONS_FOLDER, folder, { recursive: true });
  const journalFile = path.join(folder, 'meta/_journal.json');
  const journal = JSON.parse(readFileSync(journalFile, 'utf8')) as {
    entries: { idx: number; when: number; tag: string }[];
  };
  const last = journal.entries.at(-1)!;
  journal.entries.push({ ...last, idx: journal.entries.length, when: last.when + 1000, tag: '0099_next' });
  writeFileSync(journalFile, JSON.stringify(journal));
  writeFileSync(
    path.join(folder, '0099_next.sql'),
    `${breaks ? '-- breaks: previous\n' : ''}ALTER TABLE "users" ADD COLUMN "next_release" integer;`,
  );
  return folder;
}

/** An in-process fan-out that says whether Redis would be connected, as RedisFanout does. */
class SwitchedFanout extends InProcessFanout {
  up = true;
  connected(): boolean {
    return this.up;
  }
}

describe('/readyz', () => {
  let ctx: TestContext;
  const fanout = new SwitchedFanout();

  beforeAll(async () => {
    ctx = await createTestContext({ deps: { fanout } });
  });
  afterAll(() => ctx.close());

  it('answers 200 when the database answers, every migration ran and Redis is connected', async () => {
    const reply = await ctx.app.inject({ method: 'GET', url: '/readyz' });
    expect(reply.statusCode).toBe(200);
    expect(reply.json()).toEqual({ status: 'ok' });
  });

  it('answers 503 naming Redis while it is away, and 200 again once it is back', async () => {
    fanout.up = false;
    const down = await ctx.app.inject({ method: 'GET', url: '/readyz' });
    expect(down.statusCode).toBe(503);
    expect(down.json()).toEqual({ status: 'unavailable', down: ['redis'] });
    fanout.up = true;
    expect((await ctx.app.inject({ method: 'GET', url: '/readyz' })).statusCode).toBe(200);
  });

  it('answers 503 naming migrations that have not run', async () => {
    // A database of its own: the others here need every migration in place.
    const behind = await createTestContext();
    try {
      await behind.database.db.execute(
        'delete from drizzle.__drizzle_migrations where id = (select max(id) from drizzle.__drizzle_migrations)',
      );
      const reply = await behind.app.inject({ method: 'GET', url: '/readyz' });
      expect(reply.statusCode).toBe(503);
      expect(reply.json()).toEqual({ status: 'unavailable', down: ['migrations'] });
      // /healthz is liveness only: the process answers.
      expect((await behind.app.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);
    } finally {
      await behind.close();
    }
  });

  it('names the database when it does not answer', async () => {
    const database = await openTestDatabase();
    await database.close();
    expect(await new Readiness(database.db, new InProcessFanout()).check()).toEqual(['database']);
  });

  it.each([
    { breaks: false, status: 200, body: { status: 'ok' } },
    { breaks: true, status: 503, body: { status: 'unavailable', down: ['schema'] } },
  ])(
    'after a newer release migrated the database (breaks previous: $breaks) answers $status',
    async ({ breaks, status, body }) => {
      // This instance is the older one: the next release's instance migrates the shared database.
      const older = await createTestContext();
      const folder = nextReleaseMigrations(breaks);
      try {
        expect(await runMigrations(older.database.db, folder)).toEqual(['0099_next']);
        const reply = await older.app.inject({ method: 'GET', url: '/readyz' });
        expect(reply.statusCode).toBe(status);
        expect(reply.json()).toEqual(body);
        expect((await older.app.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);
      } finally {
        rmSync(folder, { recursive: true, force: true });
        await older.close();
      }
    },
  );
});
