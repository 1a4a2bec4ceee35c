import { RECOVERY_CODE_COUNT, jaMember } from '@enishi/contract';
import { badRequest } from '../errors.js';
import { newRecoveryCode, recoveryHash } from '../lib/recovery-codes.js';
import type { SecondFactorRepository } from '../repositories/second-factor-repository.js';
import type { AccountFactors } from './account-factors.js';
import type { AccountNotices } from './account-notices.js';
import type { Actor, SessionService } from './session-service.js';

/**
 * Recovery codes (product.md §11.7): a new set with an account's first factor and on request, none once no
 * factor is left. Only their hashes are stored; factor-answers.ts takes one at a second step.
 */
export class RecoveryCodes {
  constructor(
    private readonly repo: SecondFactorRepository,
    private readonly sessions: SessionService,
    private readonly factors: AccountFactors,
    private readonly notices: AccountNotices,
  ) {}

  /** A new set for `userId`, replacing the old: shown once, to the person. */
  async issue(userId: number): Promise<string[]> {
    const codes = Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode);
    await this.repo.replaceRecoveryCodes(userId, codes.map(recoveryHash));
    return codes;
  }

  /** How many unused codes the account has (a second factor added then keeps them). */
  async left(userId: number): Promise<number> {
    return this.repo.recoveryCodesLeft(userId);
  }

  /** A new set on the person's request, with fresh proof and a factor to recover. */
  async regenerate(actor: Actor): Promise<{ recovery_codes: string[] }> {
    await this.sessions.requireFresh(actor);
    if ((await this.factors.factorsOf(actor.uid)).length === 0)
      throw badRequest(jaMember.security.errors.noSecondFactor);
    const codes = await this.issue(actor.uid);
    await this.notices.changed(actor, 'recovery_regenerated', { recovery_codes: [false, true] });
    return { recovery_codes: codes };
  }

  /** With no factor left, recovery codes have nothing to recover and go too. */
  async dropWhenNoFactor(userId: number): Promise<void> {
    if ((await this.factors.factorsOf(userId)).length === 0) await this.repo.removeRecoveryCodes(userId);
  }
}
