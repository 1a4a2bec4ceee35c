import { jaMember, type WebauthnOptions } from '@enishi/contract';
import { badRequest } from '../errors.js';
import type { AccountFactors } from './account-factors.js';
import type { FactorAnswers, SecondStep } from './factor-answers.js';
import type { LoginPasswords } from './login-passwords.js';
import type { Actor, SessionService } from './session-service.js';

/** What /api/reauth carries beside the session: the password, and at most one second step. */
export interface ReauthInput {
  password: string;
  step: SecondStep | null;
  address: string;
}

/**
 * Fresh proof (product.md §11.8, decision 035): the password again, plus the person's second factor when
 * they have one, makes the session fresh for REAUTH_WINDOW_S. Wrong passwords count toward the login limits,
 * wrong codes toward the per-account lock of the second step; every wrong answer is a 400 (a 401 would end
 * the session in clients).
 */
export class ReauthService {
  constructor(
    private readonly passwords: LoginPasswords,
    private readonly factors: AccountFactors,
    private readonly answers: FactorAnswers,
    private readonly sessions: SessionService,
  ) {}

  /** The passkey request for proof with one of the caller's own passkeys. */
  options(actor: Actor): Promise<WebauthnOptions> {
    return this.answers.reauthRequest(actor.uid);
  }

  async prove(actor: Actor, input: ReauthInput): Promise<{ until: string }> {
    const passwordRight = await this.passwords.again({
      loginId: actor.loginId,
      password: input.password,
      address: input.address,
    });
    if (!passwordRight) throw badRequest(jaMember.reauth.errors.passwordWrong);
    if ((await this.factors.factorsOf(actor.uid)).length > 0) {
      if (!input.step) throw badRequest(jaMember.reauth.errors.secondStepMissing);
      await this.answers.proveAgain(actor.uid, input.step);
    }
    return { until: new Date(await this.sessions.proven(actor)).toISOString() };
  }
}
