import { generateAuthenticationOptions } from '@simplewebauthn/server';
import { jaSecondStep, type WebauthnOptions, type WebauthnResponse } from '@enishi/contract';
import { unauthorized } from '../errors.js';
import type { Clock } from '../lib/clock.js';
import { challengeOf, type PasskeySite } from '../lib/webauthn.js';
import type { SecondFactorRepository } from '../repositories/second-factor-repository.js';
import { challengeEnd, type FactorAnswers } from './factor-answers.js';

/**
 * A passwordless login with a passkey (product.md §11.7): the browser offers the person's discoverable
 * credentials for a challenge of ours; the answer names the user. login-service.ts starts the session.
 */
export class PasskeyLogin {
  constructor(
    private readonly repo: SecondFactorRepository,
    private readonly site: PasskeySite,
    private readonly clock: Clock,
    private readonly answers: FactorAnswers,
  ) {}

  /** A request for any passkey of this site: the browser offers the person's discoverable credentials. */
  async options(): Promise<WebauthnOptions> {
    const options = await generateAuthenticationOptions({
      rpID: this.site.rpID,
      userVerification: 'required',
    });
    await this.repo.addChallenge(options.challenge, 'login', null, challengeEnd(this.clock));
    return { ...options };
  }

  /** The user whose passkey answered a live challenge of ours (the challenge is then used up). */
  async userOf(response: WebauthnResponse): Promise<number> {
    const challenge = challengeOf(response);
    const taken = challenge && (await this.repo.takeChallenge(challenge, 'login', new Date(this.clock())));
    if (!taken) throw unauthorized(jaSecondStep.errors.passkeyExpired);
    const credential = await this.repo.credential(response.id);
    if (!credential) throw unauthorized(jaSecondStep.errors.passkeyUnknown);
    await this.answers.assertion(credential, response, challenge, true);
    return credential.userId;
  }
}
