import type { TestProject } from 'vitest/node';
import { openDatabase } from '../db/client.js';
import { pgliteTemplates } from './template-cache.js';
import { createPostgresTemplate } from './template-database.js';

/*
 * Before the server's test files: the run's migrated template databases (test/template-database.ts), one
 * PGlite data directory and, when TEST_DATABASE_URL is set, one PostgreSQL database, and the empty PGlite data
 * directory the first is made from. Every project that lists this setup shares what the first one made; the
 * last teardown drops the PostgreSQL one, and the PGlite ones stay for the next runs (test/template-cache.ts).
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
  const serverUrl = process.env.TEST_DATABASE_URL;
  const [pglite, postgres] = await Promise.all([
    pgliteTemplates(),
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
    pglite: pglite.migrated,
    pgliteEmpty: pglite.empty,
    pgliteEmptyTar: pglite.emptyTar,
    postgres: postgres?.url,
    // The PGlite templates stay for the next runs (test/template-cache.ts).
    remove: async () => {
      await postgres?.drop();
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
