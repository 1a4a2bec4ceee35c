import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { generateSecret } from 'otplib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../db/client.js';
import { totpFactors } from '../db/schema.js';
import { loadSecretsKey, secretsKeyOf } from '../lib/secrets-key.js';
import { openTestDatabase } from '../test/database.js';
import { UserRepository } from './user-repository.js';
import { SecondFactorRepository } from './second-factor-repository.js';

/*
 * TOTP secrets at rest (decision 032): sealed with the key of SECRETS_KEY_FILE, outside the database, and
 * bound to their person; a secret stored before is sealed at start.
 */
describe('TOTP secrets in the database', () => {
  let database: DatabaseHandle;
  let folder: string;
  let keyFile: string;
  let repo: SecondFactorRepository;
  let users: UserRepository;
  let made = 0;
  /** A person of this test's own: the tests run in any order, so none leans on another's rows. */
  const person = async () => {
    made += 1;
    const user = await users.create({ loginId: `totp-${made}`, name: '会員', passwordHash: 'h', role: 101 });
    return user!.id;
  };
  const stored = async (uid: number) =>
    (await database.db.select().from(totpFactors).where(eq(totpFactors.userId, uid)))[0]!.secret;

  beforeAll(async () => {
    database = await openTestDatabase();
    folder = mkdtempSync(path.join(tmpdir(), 'enishi-secrets-'));
    keyFile = path.join(folder, 'data', 'secrets.key');
    repo = new SecondFactorRepository(database.db, secretsKeyOf(keyFile));
    users = new UserRepository(database.db);
  });
  afterAll(async () => {
    await database.close();
    rmSync(folder, { recursive: true, force: true });
  });

  it('are stored sealed with a key made on first use in a file only its owner reads', async () => {
    const secret = generateSecret();
    const a = await person();
    expect(await repo.saveTotpPending(a, secret)).toBe(true);
    expect(statSync(keyFile).mode & 0o777).toBe(0o600);
    expect(Buffer.from(readFileSync(keyFile, 'utf8').trim(), 'base64')).toHaveLength(32);

    const row = await stored(a);
    expect(row).toHaveLength(64);
    expect(row).not.toContain(secret);
    expect((await repo.totp(a))?.secret).toBe(secret);
  });

  it('cannot be read with another key, nor as another person’s', async () => {
    const [a, b] = [await person(), await person()];
    await repo.saveTotpPending(a, generateSecret());
    const other = path.join(folder, 'other.key');
    const stranger = new SecondFactorRepository(database.db, () => loadSecretsKey(other));
    await expect(stranger.totp(a)).rejects.toThrow();
    // A's sealed secret copied into B's row does not open as B's.
    await repo.saveTotpPending(b, generateSecret());
    await database.db
      .update(totpFactors)
      .set({ secret: await stored(a) })
      .where(eq(totpFactors.userId, b));
    await expect(repo.totp(b)).rejects.toThrow();
  });

  it('stored before they were sealed are read as they are and sealed at start', async () => {
    const secret = generateSecret();
    const old = await person();
    const sealedAlready = await person();
    await repo.saveTotpPending(sealedAlready, generateSecret());
    await database.db.insert(totpFactors).values({ userId: old, secret });
    expect((await repo.totp(old))?.secret).toBe(secret);
    // Every secret the other tests stored is sealed already: only the plain one is sealed now.
    expect(await repo.sealStoredTotpSecrets()).toBe(1);
    expect(await stored(old)).toHaveLength(64);
    expect(await stored(old)).not.toContain(secret);
    expect((await repo.totp(old))?.secret).toBe(secret);
    expect(await repo.sealStoredTotpSecrets()).toBe(0);
  });

  it('keep one key when several instances make it at once', async () => {
    const shared = path.join(folder, 'shared', 'secrets.key');
    const keys = await Promise.all([1, 2, 3, 4].map(() => loadSecretsKey(shared)));
    for (const key of keys) expect(key.equals(keys[0]!)).toBe(true);
  });
});
