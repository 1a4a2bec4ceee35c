import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../db/client.js';
import { verifyPassword } from '../lib/passwords.js';
import { UserRepository } from '../repositories/user-repository.js';
import { openTestDatabase } from '../test/database.js';
import { UserService } from './user-service.js';

function recorder() {
  const lines: string[] = [];
  return { lines, log: { info: (m: string) => lines.push(m), warn: (m: string) => lines.push(m) } };
}

describe('UserService.ensureOwner', () => {
  let database: DatabaseHandle;
  let repository: UserRepository;
  let service: UserService;

  // Each test starts from an empty database: whether there is an owner is what these tests are about.
  let passwordFile: string;
  beforeEach(async () => {
    passwordFile = path.join(mkdtempSync(path.join(tmpdir(), 'enishi-owner-')), 'owner-password.txt');
    database = await openTestDatabase();
    repository = new UserRepository(database.db);
    service = new UserService(repository, () => Date.now());
  });
  afterEach(async () => {
    await database.close();
    rmSync(path.dirname(passwordFile), { recursive: true, force: true });
  });

  it('creates the owner with a random password put in a file only its owner reads, never in the log', async () => {
    const { lines, log } = recorder();
    await service.ensureOwner({ loginId: 'owner', password: undefined, passwordFile }, log);
    const owner = await repository.findByLoginId('owner');
    expect(owner).toMatchObject({ role: 2, rank: 0, name: 'オーナー' });
    expect(statSync(passwordFile).mode & 0o777).toBe(0o600);
    const written = /^ID: owner\npassword: ([A-Za-z0-9]{20})\n$/.exec(
      readFileSync(passwordFile, 'utf8'),
    )?.[1];
    expect(written).toBeDefined();
    expect(await verifyPassword(owner!.passwordHash, written!)).toBe(true);
    // The log names the file, not the password.
    expect(lines.join('\n')).toContain(passwordFile);
    expect(lines.join('\n')).not.toContain(written!);
    expect(readdirSync(path.dirname(passwordFile))).toEqual([path.basename(passwordFile)]);

    const again = recorder();
    await service.ensureOwner({ loginId: 'owner', password: undefined, passwordFile }, again.log);
    expect(again.lines).toEqual([]);
  });

  it('uses OWNER_ID / OWNER_PASSWORD when there is no owner yet, and never logs that password', async () => {
    await repository.create({ loginId: 'seeded', name: '会員', passwordHash: 'h', role: 101 });
    const { lines, log } = recorder();
    await service.ensureOwner({ loginId: 'boss', password: 'Boss.pw-1', passwordFile }, log);
    const owner = await repository.findByLoginId('boss');
    expect(owner?.role).toBe(2);
    expect(await verifyPassword(owner!.passwordHash, 'Boss.pw-1')).toBe(true);
    expect(lines.join('\n')).not.toContain('Boss.pw-1');
    expect(existsSync(passwordFile)).toBe(false);
  });

  it('warns instead of failing when the owner ID is taken by someone else', async () => {
    await repository.create({ loginId: 'seeded', name: '会員', passwordHash: 'h', role: 101 });
    const { lines, log } = recorder();
    await service.ensureOwner({ loginId: 'seeded', password: 'Seeded-pw1', passwordFile }, log);
    expect(lines.join('\n')).toMatch(/already used/);
    expect(await repository.existsWithRole(2)).toBe(false);
  });

  it('leaves no password file when the ID is taken and no OWNER_PASSWORD was given', async () => {
    await repository.create({ loginId: 'owner', name: '会員', passwordHash: 'h', role: 101 });
    const { lines, log } = recorder();
    await service.ensureOwner({ loginId: 'owner', password: undefined, passwordFile }, log);
    expect(lines.join('\n')).toMatch(/already used/);
    expect(readdirSync(path.dirname(passwordFile))).toEqual([]);
  });
});
