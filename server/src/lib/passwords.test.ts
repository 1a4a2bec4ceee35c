import { password } from '@enishi/contract';
import { describe, expect, it } from 'vitest';
import { hashPassword, randomPassword, verifyAgainstDummy, verifyPassword } from './passwords.js';

describe('passwords', () => {
  it('hashes with Argon2id at the OWASP parameters and verifies', async () => {
    const hash = await hashPassword('pa.ss?/-1');
    expect(hash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(await verifyPassword(hash, 'pa.ss?/-1')).toBe(true);
    expect(await verifyPassword(hash, 'pa.ss?/-2')).toBe(false);
  });

  it('treats a malformed stored hash as a failed check', async () => {
    expect(await verifyPassword('not-a-hash', 'x')).toBe(false);
    expect(await verifyAgainstDummy('x')).toBe(false);
  });

  it('makes random passwords that the member forms accept', () => {
    const first = randomPassword();
    expect(first).toHaveLength(20);
    expect(password.safeParse(first).success).toBe(true);
    expect(randomPassword()).not.toBe(first);
  });
});
