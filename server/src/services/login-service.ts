import { ja } from '@enishi/contract';
import { rateLimited, unauthorized } from '../errors.js';
import { prepareDummyHash, verifyAgainstDummy, verifyPassword } from '../lib/passwords.js';
import type { RateLimiter } from '../lib/rate-limit.js';
import type { UserRepository } from '../repositories/user-repository.js';
import type { SessionService } from './session-service.js';

export interface LoginLimiters {
  /** Failed logins per login ID: slows guessing one account's password from many addresses. */
  perAccount: RateLimiter;
  /** Attempts per client address: slows trying many accounts from one place. */
  perAddress: RateLimiter;
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
    if (!(await this.limiters.perAddress.consume(input.address))) throw rateLimited();
    // Keyed by the ID as typed, whether or not it exists, so a locked answer does not reveal which IDs exist.
    const accountKey = input.id.toLowerCase();
    if (await this.limiters.perAccount.isLimited(accountKey)) throw rateLimited();

    const user = await this.users.findByLoginId(input.id);
    const valid = user
      ? await verifyPassword(user.passwordHash, input.password)
      : await verifyAgainstDummy(input.password);
    if (!user || !valid) {
      await this.limiters.perAccount.consume(accountKey);
      throw unauthorized(ja.errors.loginFailed);
    }

    await this.limiters.perAccount.reset(accountKey);
    const session = await this.sessions.start(user.id, input.userAgent);
    return { uid: user.id, role: user.role, rank: user.rank, name: user.name, session };
  }
}
