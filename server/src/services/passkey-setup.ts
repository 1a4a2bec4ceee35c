import {
  generateRegistrationOptions,
  verifyRegistrationResponse,
  type RegistrationResponseJSON,
} from '@simplewebauthn/server';
import { ja, jaSecondStep, type WebauthnOptions, type WebauthnResponse } from '@enishi/contract';
import { AppError, badRequest } from '../errors.js';
import { challengeOf, expectedBy, transportsOf, type PasskeySite } from '../lib/webauthn.js';
import type { SecondFactorRepository } from '../repositories/second-factor-repository.js';
import { challengeEnd } from './factor-answers.js';
import type { FactorChangeParts } from './totp-setup.js';
import type { Actor } from './session-service.js';

const passkeyFailed = () => badRequest(jaSecondStep.errors.passkeyFailed);

/**
 * Registering a passkey and removing one (product.md §11.7): discoverable credentials with user
 * verification, so members may log in with the passkey alone (passkey-login.ts). Fresh proof first (§11.8).
 */
export class PasskeySetup {
  constructor(
    private readonly repo: SecondFactorRepository,
    private readonly site: PasskeySite,
    private readonly parts: FactorChangeParts,
  ) {}

  /** The registration request, its challenge kept for the person. */
  async registerOptions(actor: Actor): Promise<WebauthnOptions> {
    await this.parts.sessions.requireFresh(actor);
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
    await this.repo.addChallenge(options.challenge, 'register', actor.uid, challengeEnd(this.parts.clock));
    return { ...options };
  }

  /** The new passkey stored; with the account's first factor, recovery codes too. */
  async registerVerify(
    actor: Actor,
    response: WebauthnResponse,
    name: string | undefined,
  ): Promise<{ ok: true; recovery_codes?: string[] }> {
    const { sessions, factors, recovery, notices } = this.parts;
    await sessions.requireFresh(actor);
    const credential = await this.verified(actor, response);
    const hadFactor = (await factors.factorsOf(actor.uid)).length > 0;
    const added = await this.repo.addCredential({
      id: credential.id,
      userId: actor.uid,
      publicKey: Buffer.from(credential.publicKey).toString('base64url'),
      counter: credential.counter,
      transports: (credential.transports ?? []).join(','),
      name: name || jaSecondStep.passkeyName,
    });
    if (!added) throw passkeyFailed();
    await sessions.secondFactorSetUp(actor.uid);
    await notices.changed(actor, 'passkey_added', { passkey: [null, name || jaSecondStep.passkeyName] });
    // The first factor comes with recovery codes, as a TOTP confirmation does.
    if (hadFactor && (await recovery.left(actor.uid)) > 0) return { ok: true };
    return { ok: true, recovery_codes: await recovery.issue(actor.uid) };
  }

  /** A passkey removed, unless it is the last factor of staff the owner requires one of. */
  async remove(actor: Actor, id: string): Promise<void> {
    const { sessions, factors, recovery, staff, notices } = this.parts;
    await sessions.requireFresh(actor);
    const had = await factors.factorsOf(actor.uid);
    const credentials = await this.repo.credentials(actor.uid);
    const removed = credentials.find((row) => row.id === id);
    if (!removed) throw new AppError('not-found', ja.errors.notFound);
    if (credentials.length === 1) await staff.mayRemove(actor, had);
    await this.repo.removeCredential(actor.uid, id);
    await recovery.dropWhenNoFactor(actor.uid);
    await notices.changed(actor, 'passkey_removed', { passkey: [removed.name, null] });
  }

  /** The credential of a registration answering the person's own live challenge, once. */
  private async verified(actor: Actor, response: WebauthnResponse) {
    const challenge = challengeOf(response);
    const now = new Date(this.parts.clock());
    const taken = challenge && (await this.repo.takeChallenge(challenge, 'register', now));
    if (!taken || taken.userId !== actor.uid) throw badRequest(jaSecondStep.errors.passkeyExpired);
    try {
      const result = await verifyRegistrationResponse({
        response: response as unknown as RegistrationResponseJSON,
        ...expectedBy(this.site, challenge),
        requireUserVerification: true,
      });
      if (!result.verified) throw passkeyFailed();
      return result.registrationInfo.credential;
    } catch (error) {
      if (error instanceof AppError) throw error;
      throw passkeyFailed();
    }
  }
}
