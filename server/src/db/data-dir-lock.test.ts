import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import { readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runScript } from '../test/process.js';
import { newDataDir } from '../test/template-database.js';
import { openConfiguredDatabase } from './client.js';
import { DataDirInUseError, lockDataDir } from './data-dir-lock.js';

describe('one process per DATA_DIR', () => {
  let dataDir: string;
  beforeAll(() => {
    dataDir = newDataDir('enishi-lock-');
  });
  afterAll(() => rm(dataDir, { recursive: true, force: true }));

  it('makes a second process refuse, naming the one that has the database, and frees it on close', async () => {
    const database = await openConfiguredDatabase({ databaseUrl: undefined, dataDir });
    const lockFile = path.join(dataDir, 'db.lock');
    try {
      expect((await readFile(lockFile, 'utf8')).trim()).toBe(String(process.pid));
      const script = 'server/src/scripts/create-user.ts';
      const args = ['--id', 'late-comer', '--password', 'Late-pass1', '--name', '後藤', '--role', '3'];
      const refused = runScript(script, args, { ...process.env, DATA_DIR: dataDir });
      await expect(refused).rejects.toThrow(`in use by process ${process.pid}`);
      await expect(refused).rejects.toThrow('/api/adduser');
    } finally {
      await database.close();
    }
    expect(existsSync(lockFile)).toBe(false);
  }, 60_000);

  it('takes over a lock whose process is gone', async () => {
    const child = spawn(process.execPath, ['-e', '']);
    await once(child, 'exit');
    const lockFile = path.join(dataDir, 'stale.lock');
    await writeFile(lockFile, `${child.pid}\n`);
    const lock = lockDataDir(lockFile, 'the test folder');
    expect((await readFile(lockFile, 'utf8')).trim()).toBe(String(process.pid));
    expect(() => lockDataDir(lockFile, 'the test folder')).toThrow(DataDirInUseError);
    lock.release();
    expect(existsSync(lockFile)).toBe(false);
  });
});
