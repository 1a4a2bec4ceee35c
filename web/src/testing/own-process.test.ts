import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/*
 * The web tests share a module graph per worker, except those that talk to a real local server, which keep a
 * process per file (vitest.config.ts, `webTestsOwnProcess`: they patch Node's globals, and the chat socket's
 * module, once started, follows every later session in its process). This keeps that list whole: a new test
 * that starts the socket or a local server runs apart from its first day.
 */
const root = fileURLToPath(new URL('../../../', import.meta.url));

/** What a test file reaches that needs a process of its own. */
const NEEDS_OWN_PROCESS = /testing\/(browser-shims|club-server|talk-screen)'|\bstartChatSocket\(/;

function testFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return testFiles(path);
    return /\.test\.tsx?$/.test(entry.name) ? [relative(root, path)] : [];
  });
}

function listedInConfig(): string[] {
  const config = readFileSync(join(root, 'vitest.config.ts'), 'utf8');
  const list = /const webTestsOwnProcess = \[([^\]]*)\]/.exec(config)?.[1] ?? '';
  return [...list.matchAll(/'([^']+)'/g)].map((match) => match[1]!);
}

describe('web tests with a process of their own', () => {
  it('are exactly those that start the chat socket or a local server', () => {
    const needing = testFiles(join(root, 'web/src'))
      .filter((file) => file !== 'web/src/testing/own-process.test.ts')
      .filter((file) => NEEDS_OWN_PROCESS.test(readFileSync(join(root, file), 'utf8')));
    expect(needing.length).toBeGreaterThan(5);
    expect(listedInConfig().sort()).toEqual(needing.sort());
  });
});
