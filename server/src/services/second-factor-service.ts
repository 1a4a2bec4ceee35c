import { randomBytes } from 'node:crypto';
import { challengeOf, transportsOf, type PasskeySite } from '../lib/webauthn.js';
import { newRecoveryCode, recoveryHash } from '../lib/recovery-codes.js';
import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
  type AuthenticationResponseJSON,
  type RegistrationResponseJSON,
} from '@simplewebauthn/server';
import { generateSecret, generateURI, verify as verifyTotp } from 'otplib';
import {
  can,
  isStaffRole,
  ja,
  LOGIN_TICKET_MS,
  LOGIN_TICKET_TRIES,
  RECOVERY_CODE_COUNT,
  type FactorsReply,
  type SecondFactor,
  type WebauthnOptions,
  type WebauthnResponse,
  jaMember,
  jaSecondStep,
} from '@enishi/contract';
import { AppError, badRequest, rateLimited, unauthorized } from '../errors.js';
import type { Clock } from '../lib/clock.js';
import { sha256Hex } from '../lib/tokens.js';
import type { SecondFactorRepository } from '../repositories/second-factor-repository.js';
import type { WebauthnCredentialRecord } from '../db/schema.js';
import type { Actor, SessionService } from './session-service.js';

/** A registration or passwordless challenge, and the passkey step of a ticket, live as long as a ticket. */
const CHALLENGE_MS = LOGIN_TICKET_MS;
/** A code is accepted 30 s either side of now (one step): clocks of phones drift. */
const TOTP_TOLERANCE_S = 30;

/** The second step of a login, as the client sent it (already parsed by the contract). */
export type SecondStep =
  | { code: string; webauthn?: undefined; recovery_code?: undefined }
  | { webauthn: WebauthnResponse; code?: undefined; recovery_code?: undefined }
  | { recovery_code: string; code?: undefined; webauthn?: undefined };

const passkeyFailed = () => unauthorized(jaSecondStep.errors.passkeyFailed);
const passkeyExpired = () => unauthorized(jaSecondStep.errors.passkeyExpired);

/**
 * The second factor (product.md §11.7, decision 018): TOTP, passkeys and recovery codes; the tickets between
 * a password and the second step; passwordless passkey logins; the owner's requirement for staff.
 */
export class SecondFactorService {
  constructor(
    private readonly repo: SecondFactorRepository,
    private readonly sessions: SessionService,
    private readonly site: PasskeySite,
    private readonly clock: Clock,
  ) {}

  /** The second steps an account offers after its password; empty when it has none. */
  async factorsOf(userId: number): Promise<SecondFactor[]> {
    const [totp, credentials] = await Promise.all([this.repo.totp(userId), this.repo.credentials(userId)]);
    const factors: SecondFactor[] = [];
    if (credentials.length > 0) factors.push('webauthn');
    if (totp?.confirmedAt) factors.push('totp');
    return factors;
  }

  async staffRequired(): Promise<boolean> {
    return this.repo.staffRequired();
  }

  /** Whether a login of this user without a second factor must set one up before anything else. */
  async mustSetUp(user: { role: number }): Promise<boolean> {
    return isStaffRole(user.role) && (await this.repo.staffRequired());
  }

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

  // --- TOTP ---

  async totpSetup(actor: Actor): Promise<{ secret: string; uri: string }> {
    const secret = generateSecret();
    if (!(await this.repo.saveTotpPending(actor.uid, secret)))
      throw badRequest(jaMember.security.errors.totpAlreadySet);
    const uri = generateURI({ issuer: this.site.rpName, label: actor.loginId, secret });
    return { secret, uri };
  }

  async totpConfirm(actor: Actor, code: string): Promise<{ recovery_codes: string[] }> {
    const totp = await this.repo.totp(actor.uid);
    if (!totp) throw badRequest(jaMember.security.errors.totpNotStarted);
    if (totp.confirmedAt) throw badRequest(jaMember.security.errors.totpAlreadySet);
    const step = await this.checkCode(totp.secret, code);
    if (step === null || !(await this.repo.takeTotpStep(actor.uid, step, true, new Date(this.clock()))))
      throw badRequest(jaSecondStep.errors.codeWrong);
    await this.sessions.secondFactorSetUp(actor.uid);
    return { recovery_codes: await this.newRecoveryCodes(actor.uid) };
  }

  async totpRemove(actor: Actor): Promise<void> {
    const factors = await this.factorsOf(actor.uid);
    if (!factors.includes('totp')) throw badRequest(jaMember.security.errors.totpMissing);
    await this.mayRemove(actor, factors);
    await this.repo.removeTotp(actor.uid);
    await this.afterRemoval(actor.uid);
  }

  /** The time step of a right code (now or one step either side), or null. */
  private async checkCode(secret: string, code: string): Promise<number | null> {
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

  // --- passkeys ---

  async registerOptions(actor: Actor): Promise<WebauthnOptions> {
    const existing = await this.repo.credentials(actor.uid);
    const options = await generateRegistrationOptions({
      rpName: this.site.rpName,
      rpID: this.site.rpID,
      userName: actor.loginId,
      userDisplayName: actor.name,
      userID: new TextEncoder().encode(`enishi-${actor.uid}`),
      attestationType: 'none',
      // Discoverable credentials with user verification: members log in with the passkey alone.
      authenticatorSelection: { residentKey: 'required', userVerification: 'required' },
      excludeCredentials: existing.map((row) => ({ id: row.id, transports: transportsOf(row) })),
    });
    await this.repo.addChallenge(options.challenge, 'register', actor.uid, this.challengeEnd());
    return { ...options };
  }

  async registerVerify(
    actor: Actor,
    response: WebauthnResponse,
    name: string | undefined,
  ): Promise<{ ok: true; recovery_codes?: string[] }> {
    const challenge = challengeOf(response);
    const taken = challenge && (await this.repo.takeChallenge(challenge, 'register', new Date(this.clock())));
    if (!taken || taken.userId !== actor.uid) throw badRequest(jaSecondStep.errors.passkeyExpired);
    let info;
    try {
      const result = await verifyRegistrationResponse({
        response: response as unknown as RegistrationResponseJSON,
        expectedChallenge: challenge,
        expectedOrigin: this.site.origin,
        expectedRPID: this.site.rpID,
        requireUserVerification: true,
      });
      if (!result.verified) throw badRequest(jaSecondStep.errors.passkeyFailed);
      info = result.registrationInfo;
    } catch (error) {
      if (error instanceof AppError) throw error;
      throw badRequest(jaSecondStep.errors.passkeyFailed);
    }
    const hadFactor = (await this.factorsOf(actor.uid)).length > 0;
    const added = await this.repo.addCredential({
      id: info.credential.id,
      userId: actor.uid,
      publicKey: Buffer.from(info.credential.publicKey).toString('base64url'),
      counter: info.credential.counter,
      transports: (info.credential.transports ?? []).join(','),
      name: name || jaSecondStep.passkeyName,
    });
    if (!added) throw badRequest(jaSecondStep.errors.passkeyFailed);
    await this.sessions.secondFactorSetUp(actor.uid);
    // The first factor comes with recovery codes, as a TOTP confirmation does.
    if (hadFactor && (await this.repo.recoveryCodesLeft(actor.uid)) > 0) return { ok: true };
    return { ok: true, recovery_codes: await this.newRecoveryCodes(actor.uid) };
  }

  async removePasskey(actor: Actor, id: string): Promise<void> {
    const factors = await this.factorsOf(actor.uid);
    const credentials = await this.repo.credentials(actor.uid);
    if (!credentials.some((row) => row.id === id)) throw new AppError('not-found', ja.errors.notFound);
    if (credentials.length === 1) await this.mayRemove(actor, factors);
    await this.repo.removeCredential(actor.uid, id);
    await this.afterRemoval(actor.uid);
  }

  async regenerateRecoveryCodes(actor: Actor): Promise<{ recovery_codes: string[] }> {
    if ((await this.factorsOf(actor.uid)).length === 0)
      throw badRequest(jaMember.security.errors.noSecondFactor);
    return { recovery_codes: await this.newRecoveryCodes(actor.uid) };
  }

  /** The owner's switch (audited): every staff member needs a second factor from their next login. */
  async setStaffRequired(actor: Actor, required: boolean): Promise<{ staff_required: boolean }> {
    if (!can(actor, 'staff.manage')) throw new AppError('forbidden', ja.errors.forbidden);
    const before = await this.repo.staffRequired();
    if (before !== required)
      await this.repo.setStaffRequired(required, new Date(this.clock()), {
        actorId: actor.uid,
        actorName: actor.name,
        action: 'security',
        targetId: actor.uid,
        targetRole: actor.role,
        changes: { staff_second_factor: [before, required] },
      });
    return { staff_required: required };
  }

  /** Staff may not remove their last factor while the owner requires one. */
  private async mayRemove(actor: Actor, factors: SecondFactor[]): Promise<void> {
    if (factors.length <= 1 && (await this.mustSetUp(actor)))
      throw badRequest(jaMember.security.errors.lastFactorRequired);
  }

  /** With no factor left, recovery codes have nothing to recover and go too. */
  private async afterRemoval(userId: number): Promise<void> {
    if ((await this.factorsOf(userId)).length === 0) await this.repo.removeRecoveryCodes(userId);
  }

  private async newRecoveryCodes(userId: number): Promise<string[]> {
    const codes = Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode);
    await this.repo.replaceRecoveryCodes(userId, codes.map(recoveryHash));
    return codes;
  }

  // --- login ---

  /** A ticket for the second step: the token the client holds; only its hash is stored. */
  async startTicket(userId: number): Promise<string> {
    const ticket = randomBytes(32).toString('base64url');
    await this.repo.createTicket(sha256Hex(ticket), userId, new Date(this.clock() + LOGIN_TICKET_MS));
    return ticket;
  }

  /** The passkey request of a ticket's account (its challenge kept with the ticket). */
  async ticketOptions(ticket: string): Promise<WebauthnOptions> {
    const row = await this.liveTicket(ticket);
    const credentials = await this.repo.credentials(row.userId);
    if (credentials.length === 0) throw badRequest(jaSecondStep.errors.passkeyMissing);
    const options = await generateAuthenticationOptions({
      rpID: this.site.rpID,
      userVerification: 'preferred',
      allowCredentials: credentials.map((cred) => ({ id: cred.id, transports: transportsOf(cred) })),
    });
    await this.repo.setTicketChallenge(row.id, options.challenge);
    return { ...options };
  }

  /** Checks a second step; the user's id once it passes (the ticket is then used up). Each check is a try. */
  async completeTicket(ticket: string, step: SecondStep): Promise<number> {
    const id = sha256Hex(ticket);
    const now = new Date(this.clock());
    const row = await this.repo.tryTicket(id, LOGIN_TICKET_TRIES, now);
    if (!row) {
      const found = await this.repo.ticket(id);
      if (found && found.expiresAt > now) throw rateLimited(jaSecondStep.errors.ticketTooManyTries);
      throw unauthorized(jaSecondStep.errors.ticketExpired);
    }
    await this.checkStep(row, step, now);
    if (!(await this.repo.endTicket(id))) throw unauthorized(jaSecondStep.errors.ticketExpired);
    return row.userId;
  }

  private async checkStep(
    row: { id: string; userId: number; challenge: string | null },
    step: SecondStep,
    now: Date,
  ): Promise<void> {
    if (step.code !== undefined) {
      const totp = await this.repo.totp(row.userId);
      const stepNo = totp?.confirmedAt ? await this.checkCode(totp.secret, step.code) : null;
      if (stepNo === null || !(await this.repo.takeTotpStep(row.userId, stepNo, false, now)))
        throw unauthorized(jaSecondStep.errors.codeWrong);
      return;
    }
    if (step.recovery_code !== undefined) {
      if (!(await this.repo.useRecoveryCode(row.userId, recoveryHash(step.recovery_code), now)))
        throw unauthorized(jaSecondStep.errors.recoveryWrong);
      return;
    }
    const challenge = challengeOf(step.webauthn);
    if (
      !challenge ||
      challenge !== row.challenge ||
      !(await this.repo.takeTicketChallenge(row.id, challenge))
    )
      throw passkeyExpired();
    const credential = await this.repo.credential(step.webauthn.id);
    if (!credential || credential.userId !== row.userId)
      throw unauthorized(jaSecondStep.errors.passkeyUnknown);
    await this.checkAssertion(credential, step.webauthn, challenge, false);
  }

  /** A request for any passkey of this site: the browser offers the person's discoverable credentials. */
  async passkeyOptions(): Promise<WebauthnOptions> {
    const options = await generateAuthenticationOptions({
      rpID: this.site.rpID,
      userVerification: 'required',
    });
    await this.repo.addChallenge(options.challenge, 'login', null, this.challengeEnd());
    return { ...options };
  }

  /** A passwordless login: the user whose passkey answered a live challenge of ours. */
  async passkeyLogin(response: WebauthnResponse): Promise<number> {
    const challenge = challengeOf(response);
    const taken = challenge && (await this.repo.takeChallenge(challenge, 'login', new Date(this.clock())));
    if (!taken) throw passkeyExpired();
    const credential = await this.repo.credential(response.id);
    if (!credential) throw unauthorized(jaSecondStep.errors.passkeyUnknown);
    await this.checkAssertion(credential, response, challenge, true);
    return credential.userId;
  }

  private async checkAssertion(
    credential: WebauthnCredentialRecord,
    response: WebauthnResponse,
    challenge: string,
    requireUserVerification: boolean,
  ): Promise<void> {
    let newCounter: number;
    try {
      const result = await verifyAuthenticationResponse({
        response: response as unknown as AuthenticationResponseJSON,
        expectedChallenge: challenge,
        expectedOrigin: this.site.origin,
        expectedRPID: this.site.rpID,
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

  private async liveTicket(ticket: string) {
    const row = await this.repo.ticket(sha256Hex(ticket));
    if (!row || row.expiresAt.getTime() <= this.clock())
      throw unauthorized(jaSecondStep.errors.ticketExpired);
    if (row.tries >= LOGIN_TICKET_TRIES) throw rateLimited(jaSecondStep.errors.ticketTooManyTries);
    return row;
  }

  private challengeEnd(): Date {
    return new Date(this.clock() + CHALLENGE_MS);
  }

  async purgeExpired(): Promise<void> {
    await this.repo.purgeExpired(new Date(this.clock()));
  }
}
