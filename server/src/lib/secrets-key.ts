import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { link, readFile, rm } from 'node:fs/promises';
import { writeSecretFile } from './secret-file.js';

/*
 * The key that encrypts second-factor secrets in the database (decision 032), kept outside it: in
 * SECRETS_KEY_FILE (DATA_DIR/secrets.key unless set), 32 random bytes in base64, made with mode 0600 by
 * the first instance that starts without one. A stolen database or backup without this file does not give
 * the TOTP secrets; losing the file loses every TOTP (docs/operations.md, "Rotating secrets").
 */

const KEY_BYTES = 32;
const NONCE_BYTES = 12;
const TAG_BYTES = 16;

/** The key in `file`, made there when there is none (by exactly one of several instances starting at once). */
export async function loadSecretsKey(file: string): Promise<Buffer> {
  const read = async () => {
    const key = Buffer.from((await readFile(file, 'utf8')).trim(), 'base64');
    if (key.length !== KEY_BYTES) {
      throw new Error(`SECRETS_KEY_FILE ${file} does not hold a key (${KEY_BYTES} bytes in base64)`);
    }
    return key;
  };
  try {
    return await read();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  // Written whole under a name of its own, then linked into place: a reader never sees half a key, and
  // of two instances making one, the first link wins and the other reads it.
  const staged = `${file}.${randomBytes(6).toString('hex')}.new`;
  await writeSecretFile(staged, `${randomBytes(KEY_BYTES).toString('base64')}\n`);
  try {
    await link(staged, file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  } finally {
    await rm(staged, { force: true });
  }
  return read();
}

/** The key of `file`, read (or made) once, when first needed. */
export function secretsKeyOf(file: string): () => Promise<Buffer> {
  let key: Promise<Buffer> | undefined;
  return () => {
    key ??= loadSecretsKey(file).catch((error: unknown) => {
      key = undefined;
      throw error;
    });
    return key;
  };
}

/** `plain` encrypted (AES-256-GCM) and bound to `context` (e.g. whose it is): nonce | ciphertext | tag. */
export function seal(key: Buffer, plain: Uint8Array, context: string): Buffer {
  const nonce = randomBytes(NONCE_BYTES);
  const cipher = createCipheriv('aes-256-gcm', key, nonce);
  cipher.setAAD(Buffer.from(context));
  return Buffer.concat([nonce, cipher.update(plain), cipher.final(), cipher.getAuthTag()]);
}

/** What `seal` encrypted; throws when the key or the context is not the one it was sealed with. */
export function unseal(key: Buffer, sealed: Buffer, context: string): Buffer {
  const nonce = sealed.subarray(0, NONCE_BYTES);
  const tag = sealed.subarray(sealed.length - TAG_BYTES);
  const decipher = createDecipheriv('aes-256-gcm', key, nonce);
  decipher.setAAD(Buffer.from(context));
  decipher.setAuthTag(tag);
  return Buffer.concat([
    decipher.update(sealed.subarray(NONCE_BYTES, sealed.length - TAG_BYTES)),
    decipher.final(),
  ]);
}
