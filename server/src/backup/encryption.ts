import { createCipheriv, createDecipheriv, randomBytes, scrypt as scryptCallback } from 'node:crypto';
import { Transform, type TransformCallback } from 'node:stream';
import { promisify } from 'node:util';

/*
 * Backups that versions before decision 032 encrypted with a passphrase (BACKUP_PASSPHRASE), still read by
 * a restore; nothing writes them any more (backups are encrypted with age, age-file.ts), and `encryptStream`
 * stays only so the tests can make one. AES-256-GCM with a key from scrypt, in chunks
 * of 64 KiB that are each authenticated, so a restore never acts on bytes it has not verified. Layout:
 *   "ENISHI-ENC1\n" (12 bytes) | salt (16) | nonce prefix (7) | chunks
 *   chunk: ciphertext length (4, big-endian) | ciphertext | tag (16)
 * A chunk's nonce is the prefix, its number (4 bytes) and 1 for the last chunk, 0 before (the STREAM
 * construction): chunks cannot be reordered, and a file cut short is refused.
 */

export const ENCRYPTED_MAGIC = Buffer.from('ENISHI-ENC1\n');
const SALT_BYTES = 16;
const PREFIX_BYTES = 7;
const TAG_BYTES = 16;
const CHUNK_BYTES = 64 * 1024;
const HEADER_BYTES = ENCRYPTED_MAGIC.length + SALT_BYTES + PREFIX_BYTES;
// 2^15 iterations, 32 MiB of memory: a fraction of a second per backup, costly per guess.
const SCRYPT = { N: 2 ** 15, r: 8, p: 1, maxmem: 64 * 1024 * 1024 };

const scrypt = promisify(scryptCallback) as (
  password: string,
  salt: Buffer,
  length: number,
  options: typeof SCRYPT,
) => Promise<Buffer>;

/** The passphrase is wrong or the file was altered or cut short. */
export class DecryptionFailed extends Error {
  override name = 'DecryptionFailed';
}

function nonce(prefix: Buffer, counter: number, last: boolean): Buffer {
  const value = Buffer.alloc(12);
  prefix.copy(value, 0);
  value.writeUInt32BE(counter, PREFIX_BYTES);
  value[11] = last ? 1 : 0;
  return value;
}

/** Encrypts what is written through it. */
export function encryptStream(passphrase: string): Transform {
  const salt = randomBytes(SALT_BYTES);
  const prefix = randomBytes(PREFIX_BYTES);
  const key = scrypt(passphrase, salt, 32, SCRYPT);
  let pending = Buffer.alloc(0);
  let counter = 0;
  let headerSent = false;

  const seal = async (stream: Transform, data: Buffer, last: boolean) => {
    const cipher = createCipheriv('aes-256-gcm', await key, nonce(prefix, counter++, last));
    const body = Buffer.concat([cipher.update(data), cipher.final()]);
    const length = Buffer.alloc(4);
    length.writeUInt32BE(body.length);
    if (!headerSent) {
      stream.push(Buffer.concat([ENCRYPTED_MAGIC, salt, prefix]));
      headerSent = true;
    }
    stream.push(Buffer.concat([length, body, cipher.getAuthTag()]));
  };

  return new Transform({
    transform(chunk: Buffer, _encoding, callback: TransformCallback) {
      pending = Buffer.concat([pending, chunk]);
      void (async () => {
        // The last full chunk is kept back: only at the end is it known whether it is the last.
        while (pending.length > CHUNK_BYTES) {
          await seal(this, pending.subarray(0, CHUNK_BYTES), false);
          pending = pending.subarray(CHUNK_BYTES);
        }
      })().then(() => callback(), callback);
    },
    flush(callback: TransformCallback) {
      seal(this, pending, true).then(() => callback(), callback);
    },
  });
}

/** True when a file starts as an encrypted backup does. */
export function isEncrypted(start: Buffer): boolean {
  return start.subarray(0, ENCRYPTED_MAGIC.length).equals(ENCRYPTED_MAGIC);
}

/** Decrypts an encrypted backup; fails with DecryptionFailed on a wrong passphrase, damage or truncation. */
export function decryptStream(passphrase: string): Transform {
  let buffered = Buffer.alloc(0);
  let key: Promise<Buffer> | undefined;
  let prefix: Buffer | undefined;
  let counter = 0;
  let ended = false;
  const failed = () => new DecryptionFailed('wrong passphrase, or the backup file is damaged or cut short');

  const open = async (stream: Transform, atEnd: boolean) => {
    if (!key) {
      if (buffered.length < HEADER_BYTES) {
        if (atEnd) throw failed();
        return;
      }
      if (!isEncrypted(buffered)) throw new DecryptionFailed('not an encrypted Enishi backup');
      const salt = buffered.subarray(ENCRYPTED_MAGIC.length, ENCRYPTED_MAGIC.length + SALT_BYTES);
      prefix = Buffer.from(buffered.subarray(ENCRYPTED_MAGIC.length + SALT_BYTES, HEADER_BYTES));
      key = scrypt(passphrase, Buffer.from(salt), 32, SCRYPT);
      buffered = buffered.subarray(HEADER_BYTES);
    }
    for (;;) {
      if (buffered.length < 4) break;
      const length = buffered.readUInt32BE(0);
      if (length > CHUNK_BYTES) throw failed();
      if (buffered.length < 4 + length + TAG_BYTES) break;
      if (ended) throw failed(); // bytes after the last chunk
      const last = buffered.length === 4 + length + TAG_BYTES && atEnd;
      const body = buffered.subarray(4, 4 + length);
      const tag = buffered.subarray(4 + length, 4 + length + TAG_BYTES);
      // Not known to be the last yet: wait for more, or for the end.
      if (!atEnd && buffered.length === 4 + length + TAG_BYTES) break;
      const decipher = createDecipheriv('aes-256-gcm', await key, nonce(prefix!, counter++, last));
      decipher.setAuthTag(tag);
      try {
        stream.push(Buffer.concat([decipher.update(body), decipher.final()]));
      } catch {
        throw failed();
      }
      buffered = buffered.subarray(4 + length + TAG_BYTES);
      if (last) ended = true;
    }
    if (atEnd && (!ended || buffered.length > 0)) throw failed();
  };

  return new Transform({
    transform(chunk: Buffer, _encoding, callback: TransformCallback) {
      buffered = Buffer.concat([buffered, chunk]);
      open(this, false).then(() => callback(), callback);
    },
    flush(callback: TransformCallback) {
      open(this, true).then(() => callback(), callback);
    },
  });
}
