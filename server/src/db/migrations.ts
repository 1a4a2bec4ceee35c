import { readMigrationFiles } from 'drizzle-orm/migrator';
import { sql } from 'drizzle-orm';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Database } from './client.js';
import { rowsOf } from './raw.js';

/*
 * The SQL migrations in server/drizzle, applied in the order of their journal. Each runs in a transaction
 * of its own with its record in drizzle.__drizzle_migrations (the table drizzle-kit's migrator kept, so
 * databases written by earlier releases carry on): a migration that fails leaves the database exactly as
 * the one before it left it, and the server does not start. A transaction-scoped advisory lock makes
 * instances that start at once on one PostgreSQL apply each migration once.
 */

export interface Migration {
  /** The file's name without .sql, e.g. `0005_push`. */
  tag: string;
  /** The journal's `when`: what the migrations table records as `created_at`, and the order. */
  when: number;
  hash: string;
  statements: string[];
  /**
   * The file declares `-- breaks: previous` (docs/releases.md): instances of releases that do not know it
   * cannot run on a schema that has it, so their `/readyz` answers 503 `schema` once it has run.
   */
  breaksPrevious: boolean;
}

/** The line a migration file carries when the release before it cannot run on its schema. */
const BREAKS_PREVIOUS = /^-- breaks: previous$/m;

/**
 * Where the newest breaking migration applied is recorded: a comment on the migrations' table, so that it
 * travels with the schema (a release that knows nothing of this file reads it the same way) and stays out of
 * the rows a backup copies.
 */
const BREAK_MARKER = 'breaks releases before migration ';

/** Any number, the same in every instance: the key of the advisory lock migrations take. */
const MIGRATION_LOCK = 0x656e_6973;

export function readMigrations(folder: string): Migration[] {
  const journal = JSON.parse(readFileSync(path.join(folder, 'meta/_journal.json'), 'utf8')) as {
    entries: { tag: string; when: number }[];
  };
  const files = readMigrationFiles({ migrationsFolder: folder });
  return journal.entries.map((entry, index) => ({
    tag: entry.tag,
    when: entry.when,
    hash: files[index]!.hash,
    statements: files[index]!.sql.filter((statement) => statement.trim() !== ''),
    breaksPrevious: BREAKS_PREVIOUS.test(readFileSync(path.join(folder, `${entry.tag}.sql`), 'utf8')),
  }));
}

/** The `when` a break marker (the migrations' table's comment) names, or null for none. */
export function breakingMigrationOf(comment: string | null | undefined): number | null {
  if (!comment?.startsWith(BREAK_MARKER)) return null;
  const when = Number(comment.slice(BREAK_MARKER.length));
  return Number.isSafeInteger(when) ? when : null;
}

/** The `when` of the last migration applied, or null for a database that has none. */
export async function lastAppliedMigration(db: Database): Promise<number | null> {
  const exists = rowsOf<{ found: string | null }>(
    await db.execute(sql`select to_regclass('drizzle.__drizzle_migrations')::text as found`),
  );
  if (!exists[0]?.found) return null;
  const rows = rowsOf<{ created_at: string | number | null }>(
    await db.execute(sql`select max(created_at) as created_at from drizzle.__drizzle_migrations`),
  );
  const last = rows[0]?.created_at;
  return last === null || last === undefined ? null : Number(last);
}

export interface MigrateOptions {
  /** Stop after the migration with this `when` (a restore builds the schema its backup was taken with). */
  upTo?: number | undefined;
}

/** Applies the migrations of `folder` not yet applied, each in its own transaction; returns their tags. */
export async function runMigrations(
  db: Database,
  folder: string,
  options: MigrateOptions = {},
): Promise<string[]> {
  const migrations = readMigrations(folder);
  if (options.upTo !== undefined && !migrations.some((migration) => migration.when === options.upTo)) {
    throw new Error(`no migration in ${folder} was made at ${options.upTo}`);
  }
  await db.execute(sql`create schema if not exists drizzle`);
  await db.execute(
    sql`create table if not exists drizzle.__drizzle_migrations (id serial primary key, hash text not null, created_at bigint)`,
  );
  const applied: string[] = [];
  for (const migration of migrations) {
    if (options.upTo !== undefined && migration.when > options.upTo) break;
    const ran = await db.transaction(async (tx) => {
      await tx.execute(sql.raw(`select pg_advisory_xact_lock(${MIGRATION_LOCK})`));
      const last = await lastAppliedMigration(tx as unknown as Database);
      if (last !== null && last >= migration.when) return false;
      for (const statement of migration.statements) await tx.execute(sql.raw(statement));
      await tx.execute(
        sql`insert into drizzle.__drizzle_migrations (hash, created_at) values (${migration.hash}, ${migration.when})`,
      );
      if (migration.breaksPrevious) {
        await tx.execute(
          sql.raw(`comment on table drizzle.__drizzle_migrations is '${BREAK_MARKER}${migration.when}'`),
        );
      }
      return true;
    });
    if (ran) applied.push(migration.tag);
  }
  return applied;
}
