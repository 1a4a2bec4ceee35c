import { generateSecret, generateURI } from 'otplib';
import { jaMember, jaSecondStep } from '@enishi/contract';
import { badRequest } from '../errors.js';
import type { Clock } from '../lib/clock.js';
import type { PasskeySite } from '../lib/webauthn.js';
import type { SecondFactorRepository } from '../repositories/second-factor-repository.js';
import type { AccountFactors } from './account-factors.js';
import type { AccountNotices } from './account-notices.js';
import type { FactorAnswers } from './factor-answers.js';
import type { RecoveryCodes } from './recovery-codes.js';
import type { StaffRequirement } from './staff-requirement.js';
import type { Actor, SessionService } from './session-service.js';

/** What setting a factor up or removing it works with, beside the repository (login-wiring.ts makes them). */
export interface FactorChangeParts {
  sessions: SessionService;
  clock: Clock;
  factors: AccountFactors;
  recovery: RecoveryCodes;
  staff: StaffRequirement;
  /** Each change to how the person logs in: audited, and told on their other devices (§11.8). */
  notices: AccountNotices;
}

/**
 * Setting TOTP up and removing it (product.md §11.7): a pending secret, confirmed by a right code, which
 * brings recovery codes. Every change needs fresh proof (§11.8).
 */
export class TotpSetup {
  constructor(
    private readonly repo: SecondFactorRepository,
    private readonly site: PasskeySite,
    /** Checks the confirming code (factor-answers.ts). */
    private readonly answers: FactorAnswers,
    private readonly parts: FactorChangeParts,
  ) {}

  /** A pending secret and its otpauth URI for the authenticator app. */
  async setup(actor: Actor): Promise<{ secret: string; uri: string }> {
    await this.parts.sessions.requireFresh(actor);
    const secret = generateSecret();
    if (!(await this.repo.saveTotpPending(actor.uid, secret)))
      throw badRequest(jaMember.security.errors.totpAlreadySet);
    const uri = generateURI({ issuer: this.site.rpName, label: actor.loginId, secret });
    return { secret, uri };
  }

  /** The pending secret confirmed by a right code (its step used up): a factor, and recovery codes. */
  async confirm(actor: Actor, code: string): Promise<{ recovery_codes: string[] }> {
    const { sessions, clock, recovery, notices } = this.parts;
    await sessions.requireFresh(actor);
    const totp = await this.repo.totp(actor.uid);
    if (!totp) throw badRequest(jaMember.security.errors.totpNotStarted);
    if (totp.confirmedAt) throw badRequest(jaMember.security.errors.totpAlreadySet);
    const step = await this.answers.checkCode(totp.secret, code);
    if (step === null || !(await this.repo.takeTotpStep(actor.uid, step, true, new Date(clock()))))
      throw badRequest(jaSecondStep.errors.codeWrong);
    await sessions.secondFactorSetUp(actor.uid);
    const codes = await recovery.issue(actor.uid);
    await notices.changed(actor, 'totp_added', { totp: [false, true] });
    return { recovery_codes: codes };
  }

  /** TOTP removed, unless it is the last factor of staff the owner requires one of. */
  async remove(actor: Actor): Promise<void> {
    const { sessions, factors, recovery, staff, notices } = this.parts;
    await sessions.requireFresh(actor);
    const had = await factors.factorsOf(actor.uid);
    if (!had.includes('totp')) throw badRequest(jaMember.security.errors.totpMissing);
    await staff.mayRemove(actor, had);
    await this.repo.removeTotp(actor.uid);
    await recovery.dropWhenNoFactor(actor.uid);
    await notices.changed(actor, 'totp_removed', { totp: [true, false] });
  }
}
