import { createReadStream, createWriteStream } from 'node:fs';
import { open, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { PassThrough, Readable, type Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Config } from '../config.js';
import { openConfiguredDatabase, openDatabase, type DatabaseHandle } from '../db/client.js';
import { backupThroughServer, connectControlSocket } from './control-socket.js';
import { decryptWith, encryptTo, isAgeFile } from './age-file.js';
import { decryptStream, isEncrypted } from './encryption.js';
import { RestoreRefused } from './refused.js';
import { writeBackup, type BackupSummary, type TakenBackup } from './write-backup.js';

/** age public keys a backup is encrypted to (decision 032); none: written plain, as asked for. */
export type BackupRecipients = string[];

/**
 * Writes a backup file: to FILE.partial first, synced, then renamed, so a file of that name is always a
 * whole backup. Encrypted to `recipients` (age) unless there are none. Message writes, held back by the
 * backup's tail, go on once the file has its name and `written` has told of it (decision 022).
 */
export async function backupToFile(
  file: string,
  recipients: BackupRecipients,
  produce: (out: Writable) => Promise<TakenBackup>,
  written: (summary: BackupSummary) => void = () => {},
): Promise<BackupSummary> {
  const partial = `${file}.partial`;
  const head = new PassThrough();
  const body = recipients.length > 0 ? await encryptTo(recipients, head) : head;
  const done = pipeline(body, createWriteStream(partial, { flags: 'wx', mode: 0o600 }));
  let taken: TakenBackup | undefined;
  try {
    taken = await produce(head);
    head.end();
    await done;
    const handle = await open(partial, 'r+');
    await handle.sync().finally(() => handle.close());
    await rename(partial, file);
    written(taken.summary);
    return taken.summary;
  } catch (error) {
    head.destroy();
    await done.catch(() => {});
    await rm(partial, { force: true });
    throw error;
  } finally {
    await taken?.release();
  }
}

/** A backup taken from a database this process opened, which stays open until it is released. */
async function backupOwn(database: DatabaseHandle, mediaDir: string, out: Writable): Promise<TakenBackup> {
  try {
    const taken = await writeBackup(database, mediaDir, out);
    return {
      summary: taken.summary,
      release: () => taken.release().finally(() => database.close()),
    };
  } catch (error) {
    await database.close();
    throw error;
  }
}

/** Backs up what the configuration names: through the running server for the embedded database. */
export async function backupConfigured(
  config: Pick<Config, 'dataDir' | 'databaseUrl'>,
  out: Writable,
): Promise<TakenBackup> {
  const mediaDir = path.join(config.dataDir, 'media');
  if (config.databaseUrl) {
    return backupOwn(await openDatabase({ databaseUrl: config.databaseUrl }), mediaDir, out);
  }
  const socket = await connectControlSocket(config.dataDir);
  if (socket) {
    try {
      const summary = await backupThroughServer(socket, out);
      // The server holds message writes back until the connection closes.
      return { summary, release: async () => void socket.destroy() };
    } catch (error) {
      socket.destroy();
      throw error;
    }
  }
  // No server runs: this process opens the database itself (and refuses, naming it, if one does).
  return backupOwn(await openConfiguredDatabase(config), mediaDir, out);
}

/** What reads an encrypted backup: age identities (restore --identity), or an older version's passphrase. */
export interface BackupKeys {
  identities: string[];
  passphrase: string | undefined;
}

/** The backup file's bytes as a tar stream, decrypted when the file is encrypted. */
export async function readBackupFile(file: string, keys: BackupKeys): Promise<Readable> {
  const start = Buffer.alloc(32);
  const handle = await open(file, 'r');
  try {
    await handle.read(start, 0, start.length, 0);
  } finally {
    await handle.close();
  }
  if (isAgeFile(start)) {
    if (keys.identities.length === 0) {
      throw new RestoreRefused(
        'the backup is encrypted (age): give --identity FILE, the key file whose public key is in BACKUP_RECIPIENTS',
      );
    }
    return decryptWith(keys.identities, createReadStream(file));
  }
  if (!isEncrypted(start)) return createReadStream(file);
  // Written by a version before decision 032 with BACKUP_PASSPHRASE: still read.
  const passphrase = keys.passphrase;
  if (!passphrase) {
    throw new RestoreRefused(
      'the backup was encrypted with a passphrase by an earlier version: set BACKUP_PASSPHRASE to it',
    );
  }
  // Read only once the restore reads it, so a wrong passphrase fails the restore rather than the process.
  async function* decrypted() {
    const raw = createReadStream(file);
    const decrypting = decryptStream(passphrase!);
    raw.on('error', (error) => decrypting.destroy(error));
    yield* raw.pipe(decrypting) as AsyncIterable<Buffer>;
  }
  return Readable.from(decrypted(), { objectMode: false });
}
