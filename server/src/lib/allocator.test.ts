import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../test/process.js';
import { ALLOCATOR_ENV, allocatorTuned } from './allocator.js';

// Frames of pictures as a flood brings them (27 MB, a little smaller each time, a few small blocks kept in
// between), then collected: how far the process's RSS stays above where it started, in MB.
const FLOOD = `
const rss = () => Number(/VmRSS:\\s+(\\d+)/.exec(require('fs').readFileSync('/proc/self/status', 'utf8'))[1]) / 1024;
const start = rss();
const kept = [];
for (let round = 0; round < 6; round += 1) {
  const frames = [];
  for (let i = 0; i < 4; i += 1) {
    const frame = Buffer.allocUnsafe(27e6 - round * 100000 - i);
    frame.fill(1);
    frames.push(frame);
    kept.push(Buffer.alloc(200));
  }
  frames.length = 0;
  gc();
}
gc();
console.log(Math.round(rss() - start));
`;

function growthWith(env: NodeJS.ProcessEnv): number {
  const result = spawnSync(process.execPath, ['--expose-gc', '-e', FLOOD], { env, encoding: 'utf8' });
  expect(result.status, result.stderr).toBe(0);
  return Number(result.stdout.trim());
}

describe('malloc thresholds of a server process', () => {
  const plain = Object.fromEntries(
    Object.entries(process.env).filter(([name]) => !name.startsWith('MALLOC_')),
  );

  it('give the memory of large frames back once they are freed, where glibc by default keeps it', () => {
    const tuned = growthWith({ ...plain, ...ALLOCATOR_ENV });
    // What glibc keeps by default depends on when the collector's thread frees each frame (51-129 MB over
    // eight runs, 26 MB tuned in every one): the most of three floods is what it keeps.
    const untuned = Math.max(growthWith(plain), growthWith(plain), growthWith(plain));
    expect(tuned).toBeLessThan(50);
    expect(untuned - tuned).toBeGreaterThan(40);
    // Four processes each fill and free 650 MB: on two cores shared with the browser tests, over 30 s.
  }, 120_000);

  it('are set by npm start and the server workspace’s serve', () => {
    const scripts = (path: string) =>
      (JSON.parse(readFileSync(join(REPO_ROOT, path), 'utf8')) as { scripts: Record<string, string> })
        .scripts;
    const settings = Object.entries(ALLOCATOR_ENV).map(([name, value]) => `${name}=${value}`);
    for (const script of [scripts('package.json').start!, scripts('server/package.json').serve!]) {
      for (const setting of settings) expect(script).toContain(`${setting} `);
    }
    expect(allocatorTuned(ALLOCATOR_ENV)).toBe(true);
    expect(allocatorTuned(plain)).toBe(false);
  });
});
