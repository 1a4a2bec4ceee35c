import type { FactorsReply, SecondFactor } from '@enishi/contract';
import type { SecondFactorRepository } from '../repositories/second-factor-repository.js';
import type { Actor } from './session-service.js';

/**
 * Which second factors an account has (product.md §11.7, decision 018): what the login offers after the
 * password, and what the security page shows. It only reads; the units that change factors are
 * totp-setup.ts, passkey-setup.ts and recovery-codes.ts.
 */
export class AccountFactors {
  constructor(private readonly repo: SecondFactorRepository) {}

  /** The second steps an account offers after its password; empty when it has none. */
  async factorsOf(userId: number): Promise<SecondFactor[]> {
    const [totp, credentials] = await Promise.all([this.repo.totp(userId), this.repo.credentials(userId)]);
    const factors: SecondFactor[] = [];
    if (credentials.length > 0) factors.push('webauthn');
    if (totp?.confirmedAt) factors.push('totp');
    return factors;
  }

  /** One's own factors for the security page, with the owner's staff requirement. */
  async status(actor: Actor): Promise<FactorsReply> {
    const [totp, credentials, left, staffRequired] = await Promise.all([
      this.repo.totp(actor.uid),
      this.repo.credentials(actor.uid),
      this.repo.recoveryCodesLeft(actor.uid),
      this.repo.staffRequired(),
    ]);
    return {
      totp: !!totp?.confirmedAt,
      passkeys: credentials.map((row) => ({
        id: row.id,
        name: row.name,
        created_at: row.createdAt.toISOString(),
        last_used_at: row.lastUsedAt?.toISOString() ?? null,
      })),
      recovery_codes_left: left,
      setup_required: !!actor.secondFactorSetup,
      staff_required: staffRequired,
    };
  }
}
