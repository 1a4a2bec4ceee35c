import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { repoRoot } from '../lib/server.js';

/*
 * The built web app's chunks as files (web/dist, no browser): how they import one another and what every
 * page's head fetches first (product.md §2.7; what pages download is js-budget.test.ts's).
 */

const dist = join(repoRoot, 'web/dist');

describe('the built chunks', () => {
  test('import one another without a cycle', () => {
    // The schemas chunk leaves out the modules it imports (scripts/chunk-groups.ts, decision 021); a cycle between
    // chunks would then let a chunk run before one it reads from, and the app would stop at its first screen.
    const assets = join(dist, 'assets');
    const imports = new Map<string, string[]>();
    for (const file of readdirSync(assets).filter((name) => name.endsWith('.js'))) {
      const code = readFileSync(join(assets, file), 'utf8');
      imports.set(
        file,
        [...code.matchAll(/(?:import|export)[^"']*?from\s*"\.\/([^"]+\.js)"/g)].map((m) => m[1]!),
      );
    }
    const cycles: string[] = [];
    const state = new Map<string, 'open' | 'done'>();
    const visit = (file: string, path: string[]) => {
      state.set(file, 'open');
      for (const next of imports.get(file) ?? []) {
        if (state.get(next) === 'open') cycles.push([...path.slice(path.indexOf(next)), next].join(' -> '));
        else if (!state.has(next)) visit(next, [...path, next]);
      }
      state.set(file, 'done');
    };
    for (const file of imports.keys()) if (!state.has(file)) visit(file, [file]);
    expect(imports.size).toBeGreaterThan(10);
    expect(cycles).toEqual([]);
  });

  test("every page's head fetches the entry's chunks with it, not one round trip after it", () => {
    // A screen's own list of files leaves the entry's chunks out (vite.config.ts): the pages must keep them.
    const pages = [
      'index.html',
      'shells/talk.html',
      'shells/talk/staff.html',
      'enter.html',
      'login.html',
      'intro/male.html',
    ];
    for (const name of pages) {
      const html = readFileSync(join(dist, name), 'utf8');
      const entry = /<script type="module" crossorigin src="\/assets\/([^"]+\.js)">/.exec(html)?.[1];
      expect(entry, name).toBeTruthy();
      const code = readFileSync(join(dist, 'assets', entry!), 'utf8');
      const imported = [...code.matchAll(/import[^"']*?from\s*"\.\/([^"]+\.js)"/g)].map((m) => m[1]!);
      expect(imported.length, name).toBeGreaterThan(1);
      for (const chunk of imported)
        expect(html, `${name}: ${chunk}`).toContain(
          `<link rel="modulepreload" crossorigin href="/assets/${chunk}">`,
        );
    }
  });

  test('the chart library (uPlot, decision 038) is in the reports screen’s chunk alone', () => {
    // Only /reports draws charts (product.md §2.9): no other screen, the desk included, downloads it.
    const assets = join(dist, 'assets');
    const withCharts = readdirSync(assets)
      .filter((name) => name.endsWith('.js') || name.endsWith('.css'))
      .filter((name) => /uplot|u-legend/.test(readFileSync(join(assets, name), 'utf8')));
    expect(withCharts.length).toBeGreaterThan(0);
    for (const name of withCharts) expect(name).toMatch(/^reports-[\w-]{8}\.(js|css)$/);
  });
});
