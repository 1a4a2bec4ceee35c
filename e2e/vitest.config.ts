import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

// Browser tests against the real, built server. The files run in parallel workers, each with a server of its
// own (lib/global-setup.ts starts one per worker, lib/suite.ts picks this worker's); what a file starts itself
// takes a free port or lives in a network namespace of its own (lib/netns.ts), so no two files meet.
// E2E_WORKERS sets how many (default 2: most of a flow waits on a browser, a server or a sandbox).
const workers = Number(process.env.E2E_WORKERS ?? 2);
export default defineConfig({
  resolve: {
    alias: {
      '@enishi/contract': fileURLToPath(new URL('../packages/contract/src/index.ts', import.meta.url)),
    },
  },
  test: {
    include: ['tests/**/*.test.ts'],
    globalSetup: ['./lib/global-setup.ts'],
    maxWorkers: workers,
    // A worker runs file after file in one process: playwright-core and the suite's helpers load once per
    // worker, not once per file (the suite's Node processes took 233 CPU s instead of 302 on a 2-core machine).
    // Files share no state through them: each launches its own browser and contexts.
    isolate: false,
    // The longest flows take 30 to 50 s on a busy 2-core machine (a login each, screenshots at two widths).
    testTimeout: 120_000,
    hookTimeout: 120_000,
    // expect.poll waits for what a user would see next (a toast after a save, a row after a send). Vitest's own
    // 1 s is shorter than one save takes while the unit tests share the two cores, so a pass hung on the load.
    expect: { poll: { timeout: 10_000 } },
  },
});
