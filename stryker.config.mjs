import { mutationModule } from './scripts/mutation-modules.mjs';

/*
 * StrykerJS over one module of scripts/mutation-modules.mjs (MUTATION_MODULE); `npm run mutation` runs each
 * in turn (scripts/mutation.mjs). One mutant at a time: the machine is shared and the tests are timed.
 */
const name = process.env.MUTATION_MODULE;
const { mutate } = mutationModule(name);

/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  testRunner: 'vitest',
  plugins: ['@stryker-mutator/vitest-runner'],
  vitest: { configFile: 'scripts/mutation-vitest.config.mjs', related: false },
  coverageAnalysis: 'perTest',
  mutate,
  concurrency: 1,
  timeoutMS: 20_000,
  reporters: ['clear-text', 'progress', 'json', 'html'],
  jsonReporter: { fileName: `reports/mutation/${name}.json` },
  htmlReporter: { fileName: `reports/mutation/${name}.html` },
  tempDirName: '.stryker-tmp',
  ignorePatterns: ['e2e', 'bench', 'deploy', 'docs', 'reports', 'data', 'dist', 'coverage'],
  thresholds: { high: 90, low: 80, break: 80 },
  cleanTempDir: true,
};
