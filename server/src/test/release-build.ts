import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { REPO_ROOT } from './process.js';

const run = promisify(execFile);

/** Where built releases are kept between runs (inside node_modules, so nothing of it is committed). */
const CACHE = path.join(REPO_ROOT, 'node_modules/.cache/enishi-releases');

/** Long enough for `npm ci` of a whole release on a busy machine. */
const STEP_TIMEOUT_MS = 15 * 60 * 1000;

/**
 * A checkout of `commit` with its server built (`server/dist/main.js`), as scripts/release-fixture.sh makes
 * it: the release's own files (`git archive`), `npm ci` from npm's cache without install scripts, and its
 * contract and server builds. Kept under node_modules/.cache/enishi-releases/<commit>, so only the first
 * run of a release pays for it.
 */
export async function releaseBuild(commit: string): Promise<string> {
  const { stdout } = await run('git', ['-C', REPO_ROOT, 'rev-parse', '--verify', `${commit}^{commit}`]);
  const full = stdout.trim();
  const folder = path.join(CACHE, full);
  if (existsSync(path.join(folder, '.built'))) return folder;

  // Built outside this checkout: TypeScript would otherwise also read this checkout's node_modules/@types.
  const work = await mkdtemp(path.join(tmpdir(), `enishi-release-${full.slice(0, 7)}-`));
  try {
    const options = { cwd: work, timeout: STEP_TIMEOUT_MS, maxBuffer: 64 * 1024 * 1024 };
    const step = async (command: string, args: string[]) => {
      try {
        await run(command, args, options);
      } catch (error) {
        const { stdout: out = '', stderr = '' } = error as { stdout?: string; stderr?: string };
        throw new Error(`${command} ${args.join(' ')} failed in ${work}:\n${out}\n${stderr}`);
      }
    };
    await step('sh', ['-c', `git -C "${REPO_ROOT}" archive ${full} | tar -x -C "${work}"`]);
    await step('npm', [
      'ci',
      '--ignore-scripts',
      '--prefer-offline',
      '--no-audit',
      '--no-fund',
      '--loglevel=error',
    ]);
    await step('npm', ['run', 'build', '-w', '@enishi/contract']);
    await step('npm', ['run', 'build', '-w', '@enishi/server']);
    await writeFile(path.join(work, '.built'), `${full}\n`);
    await mkdir(CACHE, { recursive: true });
    if (existsSync(folder)) await rm(folder, { recursive: true, force: true });
    // A rename where the temporary folder is on the same file system, else a copy (symlinks kept as they are).
    await rename(work, folder).catch(() => step('cp', ['-a', work, folder]));
    return folder;
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}
