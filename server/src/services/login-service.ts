import { ja } from '@enishi/contract';
import { rateLimited, unauthorized } from '../errors.js';
import { prepareDummyHash, verifyAgainstDummy, verifyPassword } from '../lib/passwords.js';
import type { RateLimiter } from '../lib/rate-limit.js';
import type { UserRepository } from '../repositories/user-repository.js';
import type { SessionService } from './session-service.js';

/**
 * Guessing is slowed, never turned into a lock-out (docs/decisions/008-several-instances.md): an attacker
 * pauses the addresses they guess from, while the account's owner keeps logging in from elsewhere.
 */
export interface LoginLimiters {
  /** Attempts per client address, any outcome: slows trying many accounts from one place. */
  perAddress: RateLimiter;
  /** Attempts at one account from one address: a short pause for that address only. */
  perAccountAddress: RateLimiter;
  /**
   * Attempts at one account from addresses it has not logged in from lately (an hour's cap): guessing from
   * many addresses stops there, and the owner's usual addresses are not counted.
   */
  perAccount: RateLimiter;
  /** The addresses each account logged in from: a success consumes the pair, and `isLimited` reads it. */
  knownAddresses: RateLimiter;
}

export interface LoggedIn {
  uid: number;
  role: number;
  rank: number;
  name: string;
  session: string;
}

export class LoginService {
  constructor(
    private readonly users: UserRepository,
    private readonly sessions: SessionService,
    private readonly limiters: LoginLimiters,
  ) {
    void prepareDummyHash();
  }

  /** A new session for every successful login; the same refusal for an unknown ID and a wrong password. */
  async login(input: {
    id: string;
    password: string;
    address: string;
    userAgent: string;
  }): Promise<LoggedIn> {
    const { perAddress, perAccountAddress, perAccount, knownAddresses } = this.limiters;
    if (!(await perAddress.consume(input.address))) throw rateLimited();
    // Keyed by the ID as typed, whether or not it exists, so a refusal does not reveal which IDs exist.
    const account = input.id.toLowerCase();
    const pair = `${input.address}/${account}`;
    // From a new address, attempts are counted before the password is checked, so parallel guesses cannot
    // slip past the limits together. From an address the account used, only wrong passwords count: its
    // owner's logins in parallel (several tabs, a script) are never refused.
    const known = await knownAddresses.isLimited(pair);
    if (known ? await perAccountAddress.isLimited(pair) : !(await perAccountAddress.consume(pair)))
      throw rateLimited();
    if (!known && !(await perAccount.consume(account))) throw rateLimited();

    const user = await this.users.findByLoginId(input.id);
    const valid = user
      ? await verifyPassword(user.passwordHash, input.password)
      : await verifyAgainstDummy(input.password);
    if (!user || !valid) {
      if (known) await perAccountAddress.consume(pair);
      throw unauthorized(ja.errors.loginFailed);
    }

    await Promise.all([perAccountAddress.reset(pair), knownAddresses.consume(pair)]);
    const session = await this.sessions.start(user.id, input.userAgent, input.address);
    return { uid: user.id, role: user.role, rank: user.rank, name: user.name, session };
  }
}
