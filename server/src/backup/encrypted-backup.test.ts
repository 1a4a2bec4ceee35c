import { execFile } from 'node:child_process';
import { createReadStream, createWriteStream, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { promisify } from 'node:util';
import { sql } from 'drizzle-orm';
import webPush from 'web-push';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../config.js';
import { openConfiguredDatabase } from '../db/client.js';
import { rowsOf } from '../db/raw.js';
import { secretsKeyOf } from '../lib/secrets-key.js';
import { SecondFactorRepository } from '../repositories/second-factor-repository.js';
import { SecretRepository } from '../repositories/secret-repository.js';
import { backupFromArgs } from '../scripts/backup.js';
import { restoreFromArgs } from '../scripts/restore.js';
import { contentsOf, pictureHashes, rowCounts } from '../test/backup.js';
import { backupPlaces } from '../test/backup-places.js';
import { DEFAULT_ENGINE } from '../test/database.js';
import { encryptStream } from './encryption.js';

const execFileAsync = promisify(execFile);

/* Encrypted backups (decision 032): age recipients and identities, and the passphrase of earlier versions. */

const { tempDir, newTarget, demoClub, ageKey } = backupPlaces();

describe(`an age-encrypted backup on ${DEFAULT_ENGINE}`, () => {
  it('is read by age -d with the identity and by a restore given it, and reveals nothing without it', async () => {
    const original = await demoClub(DEFAULT_ENGINE);
    const config = loadConfig(original);
    // A known TOTP secret, a password hash and the push private key in the club.
    const totp = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP';
    const database = await openConfiguredDatabase(config);
    let hash: string;
    let vapidPrivateKey: string;
    let ownerId: number;
    try {
      const [owner] = rowsOf<{ id: number; password_hash: string }>(
        await database.db.execute(sql`select id, password_hash from users where role = 2 limit 1`),
      );
      ownerId = owner!.id;
      hash = owner!.password_hash;
      const factors = new SecondFactorRepository(database.db, secretsKeyOf(config.secretsKeyFile));
      expect(await factors.saveTotpPending(ownerId, totp)).toBe(true);
      const vapid = await new SecretRepository(database.db).getOrCreate(
        'vapid-keys',
        JSON.stringify(webPush.generateVAPIDKeys()),
      );
      vapidPrivateKey = (JSON.parse(vapid) as { privateKey: string }).privateKey;
    } finally {
      await database.close();
    }

    const dir = tempDir('enishi-backup-file-');
    const file = path.join(dir, 'club.backup');
    const key = await ageKey();
    await backupFromArgs([file], { ...original, BACKUP_RECIPIENTS: key.recipient });
    const encrypted = readFileSync(file);
    expect(encrypted.subarray(0, 22).toString()).toBe('age-encryption.org/v1\n');

    // The standard age format: the age command decrypts it to the backup's tar.
    const plain = path.join(dir, 'club.tar');
    await execFileAsync('age', ['-d', '-i', key.identityFile, '-o', plain, file]);
    const contents = await contentsOf(plain);
    // The unencrypted backup holds the hash and the push key (so the search below means something), and
    // the TOTP secret only sealed with the key outside the database.
    expect(contents).toContain(hash);
    expect(contents).toContain(vapidPrivateKey);
    expect(contents).not.toContain(totp);
    // Without the identity: none of them, nor any of the backup's own bytes.
    for (const secret of [hash, vapidPrivateKey, totp, 'manifest.json', 'public.users']) {
      expect(encrypted.includes(Buffer.from(secret))).toBe(false);
    }
    const tar = readFileSync(plain);
    const usersChunk = tar.indexOf('db/public.users/000000.jsonl.gz');
    const usersData = tar.subarray(usersChunk + 512, usersChunk + 512 + 48);
    expect(encrypted.includes(usersData)).toBe(false);

    const copy = await newTarget(DEFAULT_ENGINE);
    await expect(restoreFromArgs([file], copy)).rejects.toThrow(/encrypted \(age\): give --identity/);
    const other = await ageKey();
    await expect(restoreFromArgs(['--identity', other.identityFile, file], copy)).rejects.toThrow(
      /none of the identities given is one of its recipients/,
    );
    const cut = path.join(dir, 'cut.backup');
    writeFileSync(cut, encrypted.subarray(0, encrypted.length - 100));
    await expect(restoreFromArgs(['--identity', key.identityFile, cut], copy)).rejects.toThrow(
      /damaged or cut short/,
    );

    // The restored club reads its TOTP secrets with the original's key file (docs/operations.md).
    const restoredEnv = { ...copy, SECRETS_KEY_FILE: config.secretsKeyFile };
    await restoreFromArgs(['--identity', key.identityFile, file], restoredEnv);
    expect(await rowCounts(copy)).toEqual(await rowCounts(original));
    expect(pictureHashes(copy)).toEqual(pictureHashes(original));
    const restored = await openConfiguredDatabase(loadConfig(restoredEnv));
    try {
      const factors = new SecondFactorRepository(restored.db, secretsKeyOf(config.secretsKeyFile));
      expect((await factors.totp(ownerId))?.secret).toBe(totp);
    } finally {
      await restored.close();
    }
  }, 300_000);

  it('restores a backup an earlier version encrypted with BACKUP_PASSPHRASE, given the passphrase', async () => {
    const original = await demoClub(DEFAULT_ENGINE);
    const dir = tempDir('enishi-backup-file-');
    const plain = path.join(dir, 'club.tar');
    expect((await backupFromArgs(['--plain', plain], original)).encrypted).toBe(false);
    const file = path.join(dir, 'club.backup');
    const passphrase = 'correct horse battery';
    await pipeline(createReadStream(plain), encryptStream(passphrase), createWriteStream(file));

    const copy = await newTarget(DEFAULT_ENGINE);
    await expect(restoreFromArgs([file], copy)).rejects.toThrow(/passphrase by an earlier version/);
    await expect(
      restoreFromArgs([file], { ...copy, BACKUP_PASSPHRASE: 'wrong horse battery' }),
    ).rejects.toThrow(/wrong passphrase/);
    await restoreFromArgs([file], { ...copy, BACKUP_PASSPHRASE: passphrase });
    expect(await rowCounts(copy)).toEqual(await rowCounts(original));
  }, 300_000);
});
