import { ja } from '@enishi/contract';
import { AppError, rateLimited, unauthorized } from '../errors.js';
import { isFirstPasswordHash, verifyFirstPassword } from '../lib/first-passwords.js';
import type { DeviceTokens } from '../lib/device-tokens.js';
import { hashPassword, prepareDummyHash, verifyAgainstDummy, verifyPassword } from '../lib/passwords.js';
import type { RateLimiter } from '../lib/limiters.js';
import type { UserRecord } from '../db/schema.js';
import type { UserRepository } from '../repositories/user-repository.js';

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

/** The first step passed: the account, and the device token presented when it was issued to it. */
export interface PasswordPassed {
  user: UserRecord;
  device: string | undefined;
}

/**
 * The password step of a login (product.md §11.4) under its throttles, and the password typed again for
 * fresh proof (§11.8). login-service.ts takes the login on from here.
 */
export class LoginPasswords {
  constructor(
    private readonly users: UserRepository,
    private readonly limiters: LoginLimiters,
    private readonly devices: DeviceTokens,
  ) {
    void prepareDummyHash();
  }

  /** Counts a request from `address` that stores something (a passkey challenge, a login); 429 over it. */
  async countAddress(address: string): Promise<void> {
    if (!(await this.limiters.perAddress.consume(address))) throw rateLimited();
  }

  /** The account whose password this is; the same refusal for an unknown ID and a wrong password. */
  async check(input: {
    id: string;
    password: string;
    address: string;
    device?: string;
    /** Set only by `exchangeFirst`: a first password passes here, and nowhere else. */
    acceptFirst?: boolean;
  }): Promise<PasswordPassed> {
    const { perAccountAddress, knownAddresses, perDevice } = this.limiters;
    await this.countAddress(input.address);
    // Keyed by the ID as typed, whether or not it exists, so a refusal does not reveal which IDs exist.
    const account = input.id.toLowerCase();
    const pair = `${input.address}/${account}`;
    const device = await this.devices.check(input.device, account);
    // From a new address, attempts are counted before the password is checked, so parallel guesses cannot
    // slip past the limits together. From an address the account used, or with a device token issued to the
    // account, only wrong passwords count: its owner's logins in parallel are never refused.
    const known = !device && (await knownAddresses.isLimited(pair));
    await this.countAttempt({ account, pair, device, known });

    const user = await this.users.findByLoginId(input.id);
    const first = !!user && isFirstPasswordHash(user.passwordHash);
    // A first password's hash is fast (lib/first-passwords.ts): the dummy's time is spent too, so the reply
    // time does not tell which accounts still have one.
    const valid = user
      ? first
        ? (await verifyAgainstDummy(input.password)) || verifyFirstPassword(user.passwordHash, input.password)
        : await verifyPassword(user.passwordHash, input.password)
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
    // A first password opens no session: the member sets their own first (product.md §11.4).
    if (first && !input.acceptFirst)
      throw new AppError('forbidden', ja.errors.firstPasswordChange, { password_change: true });
    return { user, device: device ? input.device : undefined };
  }

  /**
   * A first password (an imported member's, product.md §2.8) exchanged for the member's own, which Argon2id
   * hashes: checked under the login's throttles, and usable once (the stored hash must still be it).
   */
  async exchangeFirst(
    input: { id: string; password: string; address: string; device?: string },
    newPassword: string,
    now: Date,
  ): Promise<void> {
    const { user } = await this.check({ ...input, acceptFirst: true });
    if (!isFirstPasswordHash(user.passwordHash)) throw unauthorized(ja.errors.loginFailed);
    const replaced = await this.users.replacePasswordHash(
      user.id,
      user.passwordHash,
      await hashPassword(newPassword),
      now,
    );
    if (!replaced) throw unauthorized(ja.errors.loginFailed);
  }

  /**
   * The password typed again for fresh proof (product.md §11.8), throttled as a login of the account from
   * this address is: a stolen session gets no more password guesses than the login form gives anyone.
   * False for a wrong one; 429 over a limit.
   */
  async again(input: { loginId: string; password: string; address: string }): Promise<boolean> {
    const { perAccountAddress, perAccount } = this.limiters;
    await this.countAddress(input.address);
    const account = input.loginId.toLowerCase();
    const pair = `${input.address}/${account}`;
    if (await perAccountAddress.isLimited(pair)) throw rateLimited();
    const user = await this.users.findByLoginId(input.loginId);
    if (user && (await verifyPassword(user.passwordHash, input.password))) return true;
    await Promise.all([perAccountAddress.consume(pair), perAccount.consume(account)]);
    return false;
  }

  /** Before the password is checked: refused while the device, or the address and account, are over a limit. */
  private async countAttempt(at: { account: string; pair: string; device: string | null; known: boolean }) {
    const { perAccountAddress, perAccount, perDevice } = this.limiters;
    if (at.device) {
      if (await perDevice.isLimited(at.device)) throw rateLimited();
      return;
    }
    if (at.known ? await perAccountAddress.isLimited(at.pair) : !(await perAccountAddress.consume(at.pair)))
      throw rateLimited();
    if (!at.known && !(await perAccount.consume(at.account))) throw rateLimited();
  }
}
