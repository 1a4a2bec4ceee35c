import { openSync, readFileSync, rmSync, writeSync, closeSync } from 'node:fs';

/*
 * The embedded database is for one process at a time: two PostgreSQL instances on one folder would corrupt
 * it. A lock file beside the folder holds the pid of the process that has it open; a second process
 * refuses to start, naming it. A lock left by a process that no longer runs (killed, power cut) is taken
 * over. The way to add a person while the server runs is the server itself (docs/decisions/007).
 */

export class DataDirInUseError extends Error {
  override name = 'DataDirInUseError';
}

/** True while process `pid` runs (as anyone). */
export function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it runs, as someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function holderOf(lockFile: string): number | null {
  try {
    const pid = Number.parseInt(readFileSync(lockFile, 'utf8').trim(), 10);
    return Number.isInteger(pid) && pid > 0 ? pid : null;
  } catch {
    return null; // gone meanwhile, or unreadable
  }
}

export interface DataDirLock {
  release(): void;
}

/** Takes `lockFile` for this process, or throws DataDirInUseError naming the running process that has it. */
export function lockDataDir(lockFile: string, what: string): DataDirLock {
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const fd = openSync(lockFile, 'wx');
      writeSync(fd, `${process.pid}\n`);
      closeSync(fd);
      return {
        release: () => {
          if (holderOf(lockFile) === process.pid) rmSync(lockFile, { force: true });
        },
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const holder = holderOf(lockFile);
    if (holder !== null && isRunning(holder)) {
      throw new DataDirInUseError(
        `${what} is in use by process ${holder} (lock file ${lockFile}). Only one process may open it: ` +
          'stop that process first. To add a person while the server runs, use the staff screen ' +
          '(member administration) or POST /api/adduser; see docs/decisions/007-hostile-input-and-durability.md.',
      );
    }
    rmSync(lockFile, { force: true }); // stale: its process is gone
  }
  throw new DataDirInUseError(`Could not take the lock file ${lockFile}; another process keeps taking it.`);
}
