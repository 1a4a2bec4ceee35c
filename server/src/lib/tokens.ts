import { createHash, randomBytes } from 'node:crypto';

/** A new session token: 32 random bytes, base64url (43 characters). Only its hash is stored. */
export function newSessionToken(): string {
  return randomBytes(32).toString('base64url');
}

export function sha256Hex(value: string): string {
  return createHash('sha256').update(value).digest('hex');
}

export function looksLikeSessionToken(value: string): boolean {
  return /^[A-Za-z0-9_-]{43}$/.test(value);
}
