import { randomBytes } from 'node:crypto';
import { sha256Hex } from './tokens.js';

/* Recovery codes (product.md §11.7): 12 characters of a 32-letter alphabet (60 bits), shown `xxxx-xxxx-xxxx`. */

const RECOVERY_ALPHABET = 'abcdefghijkmnpqrstuvwxyz23456789';

export function newRecoveryCode(): string {
  const bytes = randomBytes(12);
  const chars = [...bytes].map((byte) => RECOVERY_ALPHABET[byte % RECOVERY_ALPHABET.length]).join('');
  return `${chars.slice(0, 4)}-${chars.slice(4, 8)}-${chars.slice(8)}`;
}
/** What is stored of a code: any case, with or without hyphens, is one code. */
export const recoveryHash = (code: string) => sha256Hex(`recovery\n${code.replace(/-/g, '').toLowerCase()}`);
