import {
  generateAuthenticationOptions,
  verifyAuthenticationResponse,
  type AuthenticationResponseJSON,
} from '@simplewebauthn/server';
import { verify as verifyTotp } from 'otplib';
import { LOGIN_TICKET_MS, jaSecondStep, type WebauthnOptions, type WebauthnResponse } from '@enishi/contract';
import { AppError, badRequest, unauthorized } from '../errors.js';
import type { Clock } from '../lib/clock.js';
import { recoveryHash } from '../lib/recovery-codes.js';
import { challengeOf, expectedBy, transportsOf, type PasskeySite } from '../lib/webauthn.js';
import type { WebauthnCredentialRecord } from '../db/schema.js';
import type { SecondFactorRepository } from '../repositories/second-factor-repository.js';
import type { SecondStepLock } from './second-step-lock.js';

/** A code is accepted 30 s either side of now (one step): clocks of phones drift. */
const TOTP_TOLERANCE_S = 30;

export const passkeyFailed = () => unauthorized(jaSecondStep.errors.passkeyFailed);

/** A registration or passwordless challenge, and the passkey step of a ticket, live as long as a ticket. */
export const challengeEnd = (clock: Clock): Date => new Date(clock() + LOGIN_TICKET_MS);

/** The second step of a login, as the client sent it (already parsed by the contract). */
export type SecondStep =
  | { code: string; webauthn?: undefined; recovery_code?: undefined }
  | { webauthn: WebauthnResponse; code?: undefined; recovery_code?: undefined }
  | { recovery_code: string; code?: undefined; webauthn?: undefined };

/**
 * Checking a person's answer with one of their factors (product.md §11.7, §11.8): a TOTP code or a recovery
 * code under the per-account count of wrong answers (second-step-lock.ts), a passkey's assertion, and the
 * same again for fresh proof (/api/reauth), whose wrong answers are 400s.
 */
export class FactorAnswers {
  constructor(
    private readonly repo: SecondFactorRepository,
    private readonly site: PasskeySite,
    private readonly clock: Clock,
    private readonly lock: SecondStepLock,
  ) {}

  /** The time step of a right code (now or one step either side), or null. */
  async checkCode(secret: string, code: string): Promise<number | null> {
    try {
      const result = await verifyTotp({
        secret,
        token: code,
        epoch: Math.floor(this.clock() / 1000),
        epochTolerance: TOTP_TOLERANCE_S,
      });
      return result.valid && 'timeStep' in result ? result.timeStep : null;
    } catch {
      return null;
    }
  }

  /**
   * A TOTP code or a recovery code of `uid`, counted by the per-account lock whichever ticket or session
   * it came with; `refusal` makes the error a wrong answer gets (401 at login, 400 for fresh proof).
   */
  async codeStep(
    uid: number,
    step: { code: string } | { recovery_code: string },
    now: Date,
    refusal: (message: string) => AppError,
  ): Promise<void> {
    if ('code' in step) {
      const right = await this.lock.guard(uid, async () => {
        const totp = await this.repo.totp(uid);
        const stepNo = totp?.confirmedAt ? await this.checkCode(totp.secret, step.code) : null;
        return stepNo !== null && (await this.repo.takeTotpStep(uid, stepNo, false, now));
      });
      if (!right) throw refusal(jaSecondStep.errors.codeWrong);
      return;
    }
    const right = await this.lock.guard(uid, () =>
      this.repo.useRecoveryCode(uid, recoveryHash(step.recovery_code), now),
    );
    if (!right) throw refusal(jaSecondStep.errors.recoveryWrong);
  }

  /** A request for one of the person's own passkeys (user verification preferred: the password came first). */
  async passkeyRequest(userId: number) {
    const credentials = await this.repo.credentials(userId);
    if (credentials.length === 0) throw badRequest(jaSecondStep.errors.passkeyMissing);
    return generateAuthenticationOptions({
      rpID: this.site.rpID,
      userVerification: 'preferred',
      allowCredentials: credentials.map((cred) => ({ id: cred.id, transports: transportsOf(cred) })),
    });
  }

  /** Verifies a passkey's answer to `challenge` and moves its signature counter on (once per answer). */
  async assertion(
    credential: WebauthnCredentialRecord,
    response: WebauthnResponse,
    challenge: string,
    requireUserVerification: boolean,
  ): Promise<void> {
    let newCounter: number;
    try {
      const result = await verifyAuthenticationResponse({
        response: response as unknown as AuthenticationResponseJSON,
        ...expectedBy(this.site, challenge),
        requireUserVerification,
        credential: {
          id: credential.id,
          publicKey: new Uint8Array(Buffer.from(credential.publicKey, 'base64url')),
          counter: credential.counter,
          transports: transportsOf(credential),
        },
      });
      if (!result.verified) throw passkeyFailed();
      newCounter = result.authenticationInfo.newCounter;
    } catch (error) {
      if (error instanceof AppError) throw error;
      throw passkeyFailed();
    }
    // From exactly the counter we checked against: of two uses of one assertion at once, one passes.
    if (
      !(await this.repo.useCredential(credential.id, credential.counter, newCounter, new Date(this.clock())))
    )
      throw passkeyFailed();
  }

  // --- fresh proof (product.md §11.8) ---

  /** The passkey request of fresh proof: the person's own passkeys, the challenge kept for them. */
  async reauthRequest(uid: number): Promise<WebauthnOptions> {
    const options = await this.passkeyRequest(uid);
    await this.repo.addChallenge(options.challenge, 'reauth', uid, challengeEnd(this.clock));
    return { ...options };
  }

  /** The person's second factor once more, for fresh proof: wrong answers are 400s and count like logins'. */
  async proveAgain(uid: number, step: SecondStep): Promise<void> {
    const now = new Date(this.clock());
    if (step.webauthn === undefined) return this.codeStep(uid, step, now, badRequest);
    const challenge = challengeOf(step.webauthn);
    const taken = challenge ? await this.repo.takeChallenge(challenge, 'reauth', now) : null;
    if (!challenge || !taken || taken.userId !== uid) throw badRequest(jaSecondStep.errors.passkeyExpired);
    const credential = await this.repo.credential(step.webauthn.id);
    if (!credential || credential.userId !== uid) throw badRequest(jaSecondStep.errors.passkeyUnknown);
    try {
      await this.assertion(credential, step.webauthn, challenge, false);
    } catch (error) {
      if (error instanceof AppError && error.kind === 'unauthorized') throw badRequest(error.message);
      throw error;
    }
  }
}
