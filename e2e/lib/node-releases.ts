import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/*
 * Imports nothing of the server: `npm test` runs on-node.ts beside the build, before the contract package it
 * imports is built (a server import here failed that step within 2 s).
 */
const repoRoot = fileURLToPath(new URL('../..', import.meta.url));

/** Node binaries fetched once and kept out of the repository (node_modules is never committed). */
const CACHE = join(repoRoot, 'node_modules/.cache/enishi-node');

/** The major release of a `node` binary. */
export function nodeMajor(binary: string): number {
  const version = execFileSync(binary, ['--version'], { encoding: 'utf8' }).trim();
  return Number(/^v(\d+)\./.exec(version)?.[1]);
}

/**
 * The official `node` of a major release, from npm's `node-linux-<arch>` package (the same build as
 * nodejs.org's), fetched with npm on first use and cached: later runs start at once.
 */
export function cachedNode(major: number): string {
  const binary = join(CACHE, String(major), 'node');
  if (existsSync(binary)) return binary;
  mkdirSync(CACHE, { recursive: true });
  const work = mkdtempSync(join(CACHE, 'fetch-'));
  try {
    const tarball = execFileSync(
      'npm',
      ['pack', `node-linux-${process.arch}@${major}`, '--pack-destination', work, '--silent'],
      { encoding: 'utf8', timeout: 300_000 },
    )
      .trim()
      .split('\n')
      .at(-1)!;
    execFileSync('tar', ['-xzf', join(work, tarball), '-C', work, 'package/bin/node']);
    mkdirSync(join(CACHE, String(major)), { recursive: true });
    renameSync(join(work, 'package/bin/node'), binary);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  return binary;
}
