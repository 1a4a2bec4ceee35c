import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

// Browser tests against the real, built server; one file at a time (2 cores, one shared server).
export default defineConfig({
  resolve: {
    alias: {
      '@enishi/contract': fileURLToPath(new URL('../packages/contract/src/index.ts', import.meta.url)),
    },
  },
  test: {
    include: ['tests/**/*.test.ts'],
    globalSetup: ['./lib/global-setup.ts'],
    fileParallelism: false,
    // The longest flows take 30 to 50 s on a busy 2-core machine (a login each, screenshots at two widths).
    testTimeout: 120_000,
    hookTimeout: 120_000,
  },
});
