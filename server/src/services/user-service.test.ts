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
  beforeEach(async () => {
    database = await openTestDatabase();
    repository = new UserRepository(database.db);
    service = new UserService(repository, () => Date.now());
  });
  afterEach(() => database.close());

  it('creates the owner with a random password shown once, and only the first time', async () => {
    const { lines, log } = recorder();
    await service.ensureOwner({ loginId: 'owner', password: undefined }, log);
    const owner = await repository.findByLoginId('owner');
    expect(owner).toMatchObject({ role: 2, rank: 0, name: 'オーナー' });
    const shown = /password: ([A-Za-z0-9]{20})/.exec(lines.join('\n'))?.[1];
    expect(shown).toBeDefined();
    expect(await verifyPassword(owner!.passwordHash, shown!)).toBe(true);

    const again = recorder();
    await service.ensureOwner({ loginId: 'owner', password: undefined }, again.log);
    expect(again.lines).toEqual([]);
  });

  it('uses OWNER_ID / OWNER_PASSWORD when there is no owner yet, and never logs that password', async () => {
    await repository.create({ loginId: 'seeded', name: '会員', passwordHash: 'h', role: 101 });
    const { lines, log } = recorder();
    await service.ensureOwner({ loginId: 'boss', password: 'Boss.pw-1' }, log);
    const owner = await repository.findByLoginId('boss');
    expect(owner?.role).toBe(2);
    expect(await verifyPassword(owner!.passwordHash, 'Boss.pw-1')).toBe(true);
    expect(lines.join('\n')).not.toContain('Boss.pw-1');
  });

  it('warns instead of failing when the owner ID is taken by someone else', async () => {
    await repository.create({ loginId: 'seeded', name: '会員', passwordHash: 'h', role: 101 });
    const { lines, log } = recorder();
    await service.ensureOwner({ loginId: 'seeded', password: 'Seeded-pw1' }, log);
    expect(lines.join('\n')).toMatch(/already used/);
    expect(await repository.existsWithRole(2)).toBe(false);
  });
});
