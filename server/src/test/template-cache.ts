import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { MIGRATIONS_FOLDER, PGLITE_EXTENSIONS } from '../db/client.js';
import { writePgliteEmpty, writePgliteTemplate } from './template-database.js';

/** Beside the typecheck's cache: thrown away with node_modules, never committed. */
const CACHE = fileURLToPath(new URL('../../../node_modules/.cache/enishi-test', import.meta.url));

export interface PgliteTemplates {
  /** A PGlite data directory as initdb leaves it, nothing migrated. */
  empty: string;
  /** The same, as a tar (`dumpDataDir('none')`). */
  emptyTar: string;
  /** A tar of that directory with every migration applied. */
  migrated: string;
}

/**
 * The empty and the migrated PGlite data directories, made once for as long as PGlite, its extensions and the
 * migrations stay the same, and kept for the next runs: `npm test` starts five Vitest runs that need them (the
 * server's tests on this Node, on Node 22 and 24, the load tests, the browser tests), and each made its own, an
 * initdb and every migration, about 10 CPU s. Runs that find none at once each make one and the first to finish
 * keeps it (a rename: no run reads a half-written one).
 */
export async function pgliteTemplates(): Promise<PgliteTemplates> {
  const dir = join(CACHE, `pglite-${templateKey()}`);
  if (existsSync(dir)) return inside(dir);
  mkdirSync(CACHE, { recursive: true });
  const building = mkdtempSync(join(CACHE, 'building-'));
  try {
    const made = inside(building);
    await writePgliteEmpty(made.empty, made.emptyTar);
    await writePgliteTemplate(made.migrated, made.emptyTar);
    renameSync(building, dir);
  } catch (error) {
    // Another run kept its own first (the rename finds the folder there): that one is used.
    if (!existsSync(dir)) throw error;
  } finally {
    rmSync(building, { recursive: true, force: true });
  }
  // Templates of other migrations or another PGlite are not used again.
  for (const name of readdirSync(CACHE)) {
    if (name.startsWith('pglite-') && join(CACHE, name) !== dir) {
      rmSync(join(CACHE, name), { recursive: true, force: true });
    }
  }
  return inside(dir);
}

const inside = (dir: string): PgliteTemplates => ({
  empty: join(dir, 'empty'),
  emptyTar: join(dir, 'empty.tar'),
  migrated: join(dir, 'migrated.tar'),
});

/** What the templates are made of: PGlite's version, its extensions, the migrations and the code that runs them. */
function templateKey(): string {
  const hash = createHash('sha256');
  hash.update(readFileSync(pglitePackageJson()));
  hash.update(Object.keys(PGLITE_EXTENSIONS).join(','));
  hash.update(readFileSync(fileURLToPath(new URL('../db/migrations.ts', import.meta.url))));
  const files = readdirSync(MIGRATIONS_FOLDER, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name))
    .sort();
  for (const file of files) hash.update(file.slice(MIGRATIONS_FOLDER.length)).update(readFileSync(file));
  return hash.digest('hex').slice(0, 16);
}

/** PGlite's package.json (its exports do not name it): up from its entry point. */
function pglitePackageJson(): string {
  let dir = dirname(createRequire(import.meta.url).resolve('@electric-sql/pglite'));
  for (;;) {
    const file = join(dir, 'package.json');
    if (
      existsSync(file) &&
      (JSON.parse(readFileSync(file, 'utf8')) as { name?: string }).name === '@electric-sql/pglite'
    ) {
      return file;
    }
    if (dirname(dir) === dir) throw new Error("PGlite's package.json was not found");
    dir = dirname(dir);
  }
}
