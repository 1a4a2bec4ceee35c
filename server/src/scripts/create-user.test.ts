import { rm } from 'node:fs/promises';
import path from 'node:path';
import { findDesk } from '../test/talk.js';
import { newDataDir } from '../test/template-database.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../db/client.js';
import { verifyPassword } from '../lib/passwords.js';
import { UserRepository } from '../repositories/user-repository.js';
import { UsageError, createUserFromArgs } from './create-user.js';

describe('create-user script', () => {
  let dataDir: string;
  beforeAll(async () => {
    dataDir = newDataDir('enishi-cli-');
  });
  afterAll(() => rm(dataDir, { recursive: true, force: true }));

  it('creates users in the embedded database of DATA_DIR, then refuses a taken ID and bad arguments', async () => {
    const env = { DATA_DIR: dataDir };
    const args = [
      '--id',
      'taro-2',
      '--password',
      'pw.1?-taro',
      '--name',
      '山田太郎',
      '--role',
      '101',
      '--rank',
      '3',
    ];
    const first = await createUserFromArgs(args, env);
    expect(first).toEqual({ uid: expect.any(Number) });
    const second = await createUserFromArgs(
      ['--id', 'staff', '--password', 'Staff-pw1', '--name', 'S', '--role', '3'],
      env,
    );
    expect(second.uid).toBeGreaterThan(first.uid);

    await expect(createUserFromArgs(args, env)).rejects.toThrow(UsageError);
    await expect(
      createUserFromArgs(['--id', 'STAFF', '--password', 'Staff-pw1', '--name', 'S', '--role', '3'], env),
    ).rejects.toThrow(/already taken/);
    await expect(
      createUserFromArgs(['--id', 'a b', '--password', 'Pass-word1', '--name', 'n', '--role', '3'], env),
    ).rejects.toThrow(/--id/);
    await expect(
      createUserFromArgs(['--id', 'ok', '--password', 'Short-1', '--name', 'n', '--role', '3'], env),
    ).rejects.toThrow(/--password/);
    await expect(
      createUserFromArgs(['--id', 'ok', '--password', 'Pass-word1', '--name', 'n', '--role', '7'], env),
    ).rejects.toThrow(/--role/);
    await expect(createUserFromArgs(['--bogus'], env)).rejects.toThrow(UsageError);

    const database = await openDatabase({ pgliteDir: path.join(dataDir, 'db') });
    try {
      const user = await new UserRepository(database.db).findById(first.uid);
      expect(user).toMatchObject({ loginId: 'taro-2', name: '山田太郎', role: 101, rank: 3 });
      expect(await verifyPassword(user!.passwordHash, 'pw.1?-taro')).toBe(true);
      // A member comes with their talk with the staff desk; staff do not get one.
      expect(await findDesk(database.db, first.uid)).toMatchObject({ kind: 'desk', memberId: first.uid });
      expect(await findDesk(database.db, second.uid)).toBeNull();
    } finally {
      await database.close();
    }
  }, 120_000); // each run of the script starts the embedded database anew
});
