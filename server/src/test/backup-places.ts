import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { generateIdentity, identityToRecipient } from 'age-encryption';
import { afterAll } from 'vitest';
import { runDemo } from '../scripts/demo.js';
import { createPostgresDatabase, type Engine } from './database.js';
import { newDataDir } from './template-database.js';

/**
 * Places for the backup tests' clubs, removed after the file's tests: temporary folders, empty targets and
 * copies of a demo club (made once per engine per file), and age keys.
 */
export function backupPlaces() {
  const cleanups: (() => Promise<void> | void)[] = [];
  afterAll(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
  });

  function kept(dir: string): string {
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    return dir;
  }

  function tempDir(prefix: string): string {
    return kept(mkdtempSync(path.join(tmpdir(), prefix)));
  }

  /**
   * A place to keep a club: a DATA_DIR, with the run's empty embedded database in it (test/template-database.ts),
   * and on PostgreSQL a database of its own instead.
   */
  async function newTarget(engine: Engine): Promise<NodeJS.ProcessEnv> {
    const prefix = 'enishi-backup-data-';
    const dataDir = engine === 'pglite' ? kept(newDataDir(prefix)) : tempDir(prefix);
    const env: NodeJS.ProcessEnv = { DATA_DIR: dataDir, LOG_LEVEL: 'silent' };
    if (engine === 'postgres') {
      const created = await createPostgresDatabase();
      cleanups.push(() => created.drop());
      env.DATABASE_URL = created.url;
    }
    return env;
  }

  const demoClubs = new Map<Engine, Promise<NodeJS.ProcessEnv>>();

  /**
   * A demo club of its own for one test: a copy of the file's demo club of `engine` (its DATA_DIR, and on
   * PostgreSQL its database), which is made once, as `runDemo` hashes a password per person and draws pictures.
   */
  async function demoClub(engine: Engine): Promise<NodeJS.ProcessEnv> {
    let made = demoClubs.get(engine);
    if (!made) {
      made = newTarget(engine).then(async (env) => {
        await runDemo(env);
        return env;
      });
      demoClubs.set(engine, made);
    }
    const demo = await made;
    const env: NodeJS.ProcessEnv = { DATA_DIR: tempDir('enishi-backup-data-'), LOG_LEVEL: 'silent' };
    cpSync(demo.DATA_DIR!, env.DATA_DIR!, { recursive: true });
    if (engine === 'postgres') {
      const created = await createPostgresDatabase(demo.DATABASE_URL);
      cleanups.push(() => created.drop());
      env.DATABASE_URL = created.url;
    }
    return env;
  }

  /** An age key pair as `age-keygen` makes one: the identity in a file, and its public key. */
  async function ageKey(): Promise<{ identityFile: string; recipient: string }> {
    const identity = await generateIdentity();
    const identityFile = path.join(tempDir('enishi-age-'), 'key.txt');
    writeFileSync(identityFile, `# created: by the test\n${identity}\n`, { mode: 0o600 });
    return { identityFile, recipient: await identityToRecipient(identity) };
  }

  return { tempDir, newTarget, demoClub, ageKey };
}
