import { createHash, randomInt, timingSafeEqual } from 'node:crypto';

/*
 * First passwords of imported members (product.md §2.8, docs/decisions/039-first-passwords-fast-hash.md): the
 * server makes them, 20 characters of Crockford base32 (100 bits), so no guessing list holds them and a fast
 * hash (SHA-256) protects them as well as Argon2id protects a person's own. Stored in `password_hash` with
 * the prefix below, which marks the password as a first one: login accepts it only to set the member's own
 * password (login-passwords.ts), which Argon2id then hashes.
 */

const PREFIX = 'first$sha256$';
/** Crockford base32: no I, L, O or U, so nothing reads as another character. */
const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
const LENGTH = 20;

/** A new first password as the club hands it over: `K7QM-3XZP-A9D2-HT4W-N6BE`. */
export function newFirstPassword(): string {
  let text = '';
  for (let i = 0; i < LENGTH; i += 1) text += ALPHABET[randomInt(ALPHABET.length)];
  return text.match(/.{4}/g)!.join('-');
}

/** As typed: any case, with or without the hyphens or spaces; O read as 0, I and L as 1 (Crockford). */
function canonical(typed: string): string {
  return typed.toUpperCase().replace(/[\s-]/g, '').replace(/O/g, '0').replace(/[IL]/g, '1');
}

const digest = (typed: string) => createHash('sha256').update(canonical(typed)).digest();

/** What `password_hash` stores for a first password. */
export function firstPasswordHash(password: string): string {
  return PREFIX + digest(password).toString('hex');
}

export const isFirstPasswordHash = (stored: string): boolean => stored.startsWith(PREFIX);

/** Whether `typed` is the first password stored as `stored` (in constant time). */
export function verifyFirstPassword(stored: string, typed: string): boolean {
  if (!isFirstPasswordHash(stored)) return false;
  const expected = Buffer.from(stored.slice(PREFIX.length), 'hex');
  const given = digest(typed);
  return expected.length === given.length && timingSafeEqual(expected, given);
}
