import { readFile } from 'node:fs/promises';
import { Readable, Transform } from 'node:stream';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { Decrypter, Encrypter } from 'age-encryption';
import { RestoreRefused } from './refused.js';

/*
 * Backups encrypted to age public keys (decision 032), in the standard age format that `age -d -i KEY` reads
 * too. Streamed: the file is encrypted and decrypted 64 KiB at a time (age's STREAM chunks, each
 * authenticated), so a backup of any size passes through in bounded memory.
 */

/** The first line of every age file. */
export const AGE_MAGIC = Buffer.from('age-encryption.org/v1\n');

export function isAgeFile(start: Buffer): boolean {
  return start.subarray(0, AGE_MAGIC.length).equals(AGE_MAGIC);
}

/** `plain` encrypted to every one of `recipients` (age1… public keys): any one identity reads it. */
export async function encryptTo(recipients: string[], plain: Readable): Promise<Readable> {
  const encrypter = new Encrypter();
  for (const recipient of recipients) encrypter.addRecipient(recipient);
  const web = Readable.toWeb(plain) as unknown as ReadableStream<Uint8Array>;
  const encrypted = await encrypter.encrypt(web);
  return Readable.fromWeb(encrypted as unknown as WebReadableStream<Uint8Array>);
}

/**
 * The identities (AGE-SECRET-KEY-1…) of an identity file as `age-keygen` writes it: one a line, `#`
 * comments and blank lines left out.
 */
export async function readIdentities(file: string): Promise<string[]> {
  const text = await readFile(file, 'utf8').catch((error: NodeJS.ErrnoException) => {
    throw new RestoreRefused(`cannot read the identity file ${file} (${error.code ?? error.message})`);
  });
  const lines = text
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'));
  if (lines.length === 0 || !lines.every((line) => line.startsWith('AGE-SECRET-KEY-'))) {
    throw new RestoreRefused(
      `${file} is not an age identity file (lines of AGE-SECRET-KEY-1…, as age-keygen writes them)`,
    );
  }
  return lines;
}

/** The decrypted bytes of an age file; refused when none of `identities` is one of its recipients. */
export async function decryptWith(identities: string[], encrypted: Readable): Promise<Readable> {
  const decrypter = new Decrypter();
  for (const identity of identities) decrypter.addIdentity(identity);
  let web;
  try {
    web = await decrypter.decrypt(Readable.toWeb(encrypted) as unknown as ReadableStream<Uint8Array>);
  } catch (error) {
    encrypted.destroy();
    const reason = error instanceof Error ? error.message : String(error);
    throw new RestoreRefused(
      /no identity matched/.test(reason)
        ? 'the backup is encrypted to other keys: none of the identities given is one of its recipients'
        : `the backup's age header is damaged (${reason})`,
    );
  }
  const damaged = new Transform({
    transform: (chunk: Buffer, _encoding, callback) => callback(null, chunk),
  });
  const decrypted = Readable.fromWeb(web as unknown as WebReadableStream<Uint8Array>);
  // A chunk that fails its tag (altered) or a last chunk missing (cut short) ends the stream with an error.
  decrypted.on('error', (error) =>
    damaged.destroy(
      new RestoreRefused(
        `the backup file is damaged or cut short: its encryption does not check out (${error.message})`,
      ),
    ),
  );
  return decrypted.pipe(damaged);
}
