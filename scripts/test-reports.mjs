// What `npm test`'s steps wrote in their Vitest JSON reports (scripts/test.mjs): counts and the files run.
import { readFileSync } from 'node:fs';
import { relative } from 'node:path';

function read(reportPath) {
  try {
    return JSON.parse(readFileSync(reportPath, 'utf8'));
  } catch {
    return undefined;
  }
}

/** Passed and failed tests, so the run ends with one plain "N passed, N failed" line. */
export function counts(reportPath) {
  const report = read(reportPath);
  return { passed: report?.numPassedTests ?? 0, failed: report?.numFailedTests ?? 0 };
}

/** The test files a step ran, as paths from the repository's root. */
export function filesRan(reportPath) {
  return (read(reportPath)?.testResults ?? []).map((result) => relative(process.cwd(), result.name));
}

/**
 * The files of `files` not run exactly once over the reports: a filter Vitest passes over (as its --exclude
 * did for a project of its own) runs them twice, unnoticed, and one that matches nothing runs none.
 */
export function notRunOnce(files, reportPaths) {
  const ran = reportPaths.flatMap(filesRan);
  return files.filter((file) => ran.filter((each) => each === file).length !== 1);
}
