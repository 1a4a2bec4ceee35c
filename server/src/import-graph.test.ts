import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/*
 * The folders of server/src import one another in one direction only (docs/ARCHITECTURE.md, "The parts"):
 * the composition root (app/) at the top, the database and lib/ at the bottom, and no cycle between folders
 * of any length, type imports included. Each file directly in server/src (main.ts, app.ts, config.ts,
 * errors.ts, logger.ts…) counts as a folder of its own. Test files are left out: a test may use helpers
 * from anywhere.
 */

const SRC = path.dirname(fileURLToPath(import.meta.url));

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'fixtures' ? [] : sourceFiles(full);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [full] : [];
  });
}

/** The folder of server/src a file belongs to (a file directly in server/src: its own name, as `config.ts`). */
function folderOf(file: string): string {
  return path.relative(SRC, file).split(path.sep)[0]!.replace(/\.js$/, '.ts');
}

/** Every import between two folders, with the files that make it: `from -> to` → ['file: specifier']. */
function folderImports(): Map<string, string[]> {
  const edges = new Map<string, string[]>();
  for (const file of sourceFiles(SRC)) {
    // Static, type-only, re-exports and dynamic import() alike.
    const { importedFiles } = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
    for (const { fileName } of importedFiles) {
      if (!fileName.startsWith('.')) continue;
      const target = path.resolve(path.dirname(file), fileName);
      if (path.relative(SRC, target).startsWith('..')) continue;
      const [from, to] = [folderOf(file), folderOf(target)];
      if (from === to) continue;
      const key = `${from} -> ${to}`;
      edges.set(key, [...(edges.get(key) ?? []), `${path.relative(SRC, file)}: ${fileName}`]);
    }
  }
  return edges;
}

/** The cycles among folders, each as the folders in order (the first repeated at the end). */
function cycles(edges: Map<string, string[]>): string[][] {
  const next = new Map<string, string[]>();
  for (const key of edges.keys()) {
    const [from, to] = key.split(' -> ') as [string, string];
    next.set(from, [...(next.get(from) ?? []), to]);
  }
  const found: string[][] = [];
  const done = new Set<string>();
  const visit = (folder: string, trail: string[]) => {
    const at = trail.indexOf(folder);
    if (at >= 0) return void found.push([...trail.slice(at), folder]);
    if (done.has(folder)) return;
    for (const to of next.get(folder) ?? []) visit(to, [...trail, folder]);
    done.add(folder);
  };
  for (const folder of next.keys()) visit(folder, []);
  return found;
}

describe('imports between the folders of server/src', () => {
  const edges = folderImports();

  it('finds the imports it checks', () => {
    expect(edges.get('routes -> services')?.length).toBeGreaterThan(0);
  });

  it('go one way only: no two folders import each other, directly or round a cycle', () => {
    const found = cycles(edges).map((cycle) => ({
      cycle: cycle.join(' -> '),
      imports: cycle.slice(1).flatMap((to, index) => edges.get(`${cycle[index]} -> ${to}`) ?? []),
    }));
    expect(found).toEqual([]);
  });
});
