import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { openDatabase } from '../db/client.js';
import { createPostgresTemplate, writePgliteEmpty, writePgliteTemplate } from './template-database.js';

/*
 * Before the server's test files: the run's migrated template databases (test/template-database.ts), one
 * PGlite data directory and, when TEST_DATABASE_URL is set, one PostgreSQL database, and the empty PGlite
 * data directory the first is made from (its only initdb). Every project that lists
 * this setup shares what the first one made; the last teardown removes them.
 */

interface Templates {
  pglite: string;
  pgliteEmpty: string;
  pgliteEmptyTar: string;
  postgres: string | undefined;
  remove(): Promise<void>;
}

// On globalThis: each project may load this file as a module of its own, and all of them share one run.
const shared = globalThis as typeof globalThis & {
  enishiTestTemplates?: { made: Promise<Templates>; users: number };
};

async function make(): Promise<Templates> {
  const dir = mkdtempSync(join(tmpdir(), 'enishi-test-template-'));
  const pglite = join(dir, 'pglite.tar');
  const pgliteEmpty = join(dir, 'pglite-empty');
  const pgliteEmptyTar = join(dir, 'pglite-empty.tar');
  const serverUrl = process.env.TEST_DATABASE_URL;
  const [, postgres] = await Promise.all([
    writePgliteEmpty(pgliteEmpty, pgliteEmptyTar).then(() => writePgliteTemplate(pglite, pgliteEmptyTar)),
    serverUrl
      ? createPostgresTemplate(serverUrl, async (url) => {
          const handle = await openDatabase({ databaseUrl: url });
          try {
            await handle.migrate();
          } finally {
            await handle.close();
          }
        })
      : undefined,
  ]);
  return {
    pglite,
    pgliteEmpty,
    pgliteEmptyTar,
    postgres: postgres?.url,
    remove: async () => {
      await postgres?.drop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export default async function setup(project: TestProject) {
  const run = (shared.enishiTestTemplates ??= { made: make(), users: 0 });
  run.users += 1;
  const templates = await run.made;
  project.provide('pgliteTemplate', templates.pglite);
  project.provide('pgliteEmpty', templates.pgliteEmpty);
  project.provide('pgliteEmptyTar', templates.pgliteEmptyTar);
  project.provide('postgresTemplate', templates.postgres);
  return async () => {
    run.users -= 1;
    if (run.users > 0) return;
    delete shared.enishiTestTemplates;
    await templates.remove();
  };
}
