import { ja, type LoginTicketReply } from '@enishi/contract';
import { rateLimited, unauthorized } from '../errors.js';
import type { DeviceTokens } from '../lib/device-tokens.js';
import { prepareDummyHash, verifyAgainstDummy, verifyPassword } from '../lib/passwords.js';
import type { RateLimiter } from '../lib/rate-limit.js';
import type { UserRecord } from '../db/schema.js';
import type { UserRepository } from '../repositories/user-repository.js';
import type { SecondFactorService, SecondStep } from './second-factor-service.js';
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
  /**
   * Wrong passwords with one device token (OWASP device cookies, product.md §11.4): a login presenting a
   * token issued to the account is counted here instead of per account and address, so an attack on the
   * account does not lock its owner's devices out, and a stolen token buys only this bucket's guesses.
   */
  perDevice: RateLimiter;
}

export interface LoggedIn {
  uid: number;
  role: number;
  rank: number;
  name: string;
  session: string;
  device: string;
}

interface Client {
  address: string;
  userAgent: string;
}

export class LoginService {
  constructor(
    private readonly users: UserRepository,
    private readonly sessions: SessionService,
    private readonly limiters: LoginLimiters,
    private readonly devices: DeviceTokens,
    private readonly secondFactor: SecondFactorService,
  ) {
    void prepareDummyHash();
  }

  /**
   * A new session for every successful login, or for an account with a second factor a ticket for the second
   * step; the same refusal for an unknown ID and a wrong password.
   */
  async login(
    input: Client & { id: string; password: string; device?: string },
  ): Promise<LoggedIn | LoginTicketReply> {
    const { perAddress, perAccountAddress, perAccount, knownAddresses, perDevice } = this.limiters;
    if (!(await perAddress.consume(input.address))) throw rateLimited();
    // Keyed by the ID as typed, whether or not it exists, so a refusal does not reveal which IDs exist.
    const account = input.id.toLowerCase();
    const pair = `${input.address}/${account}`;
    const device = await this.devices.check(input.device, account);
    // From a new address, attempts are counted before the password is checked, so parallel guesses cannot
    // slip past the limits together. From an address the account used, or with a device token issued to the
    // account, only wrong passwords count: its owner's logins in parallel are never refused.
    const known = !device && (await knownAddresses.isLimited(pair));
    if (device) {
      if (await perDevice.isLimited(device)) throw rateLimited();
    } else {
      if (known ? await perAccountAddress.isLimited(pair) : !(await perAccountAddress.consume(pair)))
        throw rateLimited();
      if (!known && !(await perAccount.consume(account))) throw rateLimited();
    }

    const user = await this.users.findByLoginId(input.id);
    const valid = user
      ? await verifyPassword(user.passwordHash, input.password)
      : await verifyAgainstDummy(input.password);
    if (!user || !valid) {
      if (device) await perDevice.consume(device);
      else if (known) await perAccountAddress.consume(pair);
      throw unauthorized(ja.errors.loginFailed);
    }

    await Promise.all([
      perAccountAddress.reset(pair),
      knownAddresses.consume(pair),
      device ? perDevice.reset(device) : undefined,
    ]);
    const factors = await this.secondFactor.factorsOf(user.id);
    if (factors.length > 0)
      return { ticket: await this.secondFactor.startTicket(user.id), second_factor: factors };
    return this.begin(user, input, device ? input.device : undefined);
  }

  /** The second step of a ticket: a TOTP code, a passkey or a recovery code (product.md §11.7). */
  async second(input: Client & { ticket: string; step: SecondStep }): Promise<LoggedIn> {
    const uid = await this.secondFactor.completeTicket(input.ticket, input.step);
    return this.begin(await this.existing(uid), input);
  }

  /** A passkey request for a passwordless login; counted per address, as it stores a challenge. */
  async passkeyOptions(address: string) {
    if (!(await this.limiters.perAddress.consume(address))) throw rateLimited();
    return this.secondFactor.passkeyOptions();
  }

  /** A passwordless login with a passkey (discoverable credential), counted per address like a login. */
  async passkey(
    input: Client & { response: Parameters<SecondFactorService['passkeyLogin']>[0]; device?: string },
  ): Promise<LoggedIn> {
    if (!(await this.limiters.perAddress.consume(input.address))) throw rateLimited();
    const uid = await this.secondFactor.passkeyLogin(input.response);
    const user = await this.existing(uid);
    const device = await this.devices.check(input.device, user.loginId);
    return this.begin(user, input, device ? input.device : undefined);
  }

  private async existing(uid: number): Promise<UserRecord> {
    const user = await this.users.findById(uid);
    if (!user) throw unauthorized(ja.errors.loginFailed);
    return user;
  }

  /**
   * The one place a login starts a session: staff without a second factor, while the owner requires one, get
   * a session that may only set one up. The device token presented is handed back, or a new one issued.
   */
  private async begin(user: UserRecord, client: Client, device?: string): Promise<LoggedIn> {
    const secondFactorSetup =
      (await this.secondFactor.mustSetUp(user)) && (await this.secondFactor.factorsOf(user.id)).length === 0;
    const session = await this.sessions.start(user.id, client.userAgent, {
      address: client.address,
      secondFactorSetup,
    });
    return {
      uid: user.id,
      role: user.role,
      rank: user.rank,
      name: user.name,
      session,
      device: device ?? (await this.devices.issue(user.loginId)),
    };
  }
}
