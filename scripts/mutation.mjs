#!/usr/bin/env node
// `npm run mutation [module…]`: StrykerJS over the modules of scripts/mutation-modules.mjs, one at a time, one
// mutant at a time and niced (the machine is shared), then each module's score. Not part of CI: it takes
// minutes per module. The server's tests need their Redis and database as for `npm test` (TEST_REDIS_URL,
// TEST_DATABASE_URL). Each report is kept in reports/mutation/<module>.json (and .html).
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { MUTATION_MODULES } from './mutation-modules.mjs';

/** What issue 45 asks of every module. */
const WANTED = 80;

const names = process.argv.slice(2);
for (const name of names) {
  if (!MUTATION_MODULES[name]) {
    console.error(`No module ${name}; the modules are ${Object.keys(MUTATION_MODULES).join(', ')}.`);
    process.exit(2);
  }
}

/** The score as Stryker counts it: mutants killed (or timed out) of those that ran or had no test. */
function score(name) {
  const report = `reports/mutation/${name}.json`;
  if (!existsSync(report)) return null;
  const counts = { killed: 0, undetected: 0 };
  for (const file of Object.values(JSON.parse(readFileSync(report, 'utf8')).files)) {
    for (const { status } of file.mutants) {
      if (status === 'Killed' || status === 'Timeout') counts.killed += 1;
      else if (status === 'Survived' || status === 'NoCoverage') counts.undetected += 1;
    }
  }
  const total = counts.killed + counts.undetected;
  return { ...counts, total, percent: total === 0 ? 100 : (100 * counts.killed) / total };
}

const results = [];
for (const name of names.length > 0 ? names : Object.keys(MUTATION_MODULES)) {
  console.log(`\n=== ${name} ===`);
  const run = spawnSync('nice', ['-n', '10', 'npx', 'stryker', 'run', 'stryker.config.mjs'], {
    stdio: 'inherit',
    env: { ...process.env, MUTATION_MODULE: name },
  });
  results.push({ name, status: run.status, score: run.status === null ? null : score(name) });
}

console.log('\nmodule          score  killed/mutants');
for (const { name, score: found } of results) {
  const figure = found
    ? `${found.percent.toFixed(1).padStart(5)} %  ${found.killed}/${found.total}`
    : 'no report';
  console.log(`${name.padEnd(15)} ${figure}`);
}
const short = results.filter(({ score: found }) => !found || found.percent < WANTED);
if (short.length > 0) {
  console.error(`Under ${WANTED} %: ${short.map(({ name }) => name).join(', ')}`);
  process.exit(1);
}
