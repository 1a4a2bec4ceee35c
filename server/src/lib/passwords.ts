import { randomBytes, randomInt } from 'node:crypto';
import { hash, verify, type Algorithm, type Options } from '@node-rs/argon2';

// OWASP Password Storage Cheat Sheet: Argon2id, 19 MiB, 2 iterations, 1 lane (~20-50 ms per hash here).
const ARGON2ID = 2 as Algorithm; // Algorithm is a const enum, which isolatedModules cannot read.
const OPTIONS: Options = { algorithm: ARGON2ID, memoryCost: 19_456, timeCost: 2, parallelism: 1 };

export function hashPassword(password: string): Promise<string> {
  return hash(password, OPTIONS);
}

export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  try {
    return await verify(passwordHash, password);
  } catch {
    // A malformed stored hash is a failed login, not a server error.
    return false;
  }
}

let dummyHash: Promise<string> | undefined;

/** Computes the throwaway hash ahead of the first login, so that login is not slower than the rest. */
export function prepareDummyHash(): Promise<string> {
  dummyHash ??= hashPassword(randomBytes(16).toString('base64url'));
  return dummyHash;
}

/**
 * Verifies against a throwaway hash, so a login with an unknown ID spends the same time as a wrong
 * password and the reply time does not tell which IDs exist.
 */
export async function verifyAgainstDummy(password: string): Promise<false> {
  await verifyPassword(await prepareDummyHash(), password);
  return false;
}

const ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789';

/** A random password that satisfies the member-form rules (letters and digits, 20 characters, ~115 bits). */
export function randomPassword(length = 20): string {
  let result = '';
  for (let i = 0; i < length; i += 1) result += ALPHABET[randomInt(ALPHABET.length)];
  return result;
}
