import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import { mutationModule } from './mutation-modules.mjs';

/*
 * The Vitest configuration of a mutation run (scripts/mutation.mjs): one project, and only the test files
 * that cover the module being mutated, so that each mutant runs those and nothing else. The settings are the
 * unit configuration's (vitest.config.ts) for that project, one file at a time.
 */
const at = (relative) => fileURLToPath(new URL(`../${relative}`, import.meta.url));
const { project, tests } = mutationModule();

export default defineConfig({
  root: at(''),
  resolve: {
    alias: {
      '@enishi/contract': at('packages/contract/src/index.ts'),
      ...(project === 'web'
        ? { '@': at('web/src'), 'virtual:pwa-register': at('web/src/testing/pwa-register.ts') }
        : {}),
    },
  },
  test: {
    include: tests,
    environment: 'node',
    testTimeout: 30_000,
    hookTimeout: 60_000,
    maxWorkers: 1,
    fileParallelism: false,
  },
});
