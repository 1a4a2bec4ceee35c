import { ja, type LoginTicketReply, type WebauthnOptions, type WebauthnResponse } from '@enishi/contract';
import { unauthorized } from '../errors.js';
import type { DeviceTokens } from '../lib/device-tokens.js';
import type { UserRecord } from '../db/schema.js';
import type { UserRepository } from '../repositories/user-repository.js';
import type { LoggedIn } from '../presenters/user-presenter.js';
import type { AccountFactors } from './account-factors.js';
import type { SecondStep } from './factor-answers.js';
import type { LoginPasswords } from './login-passwords.js';
import type { LoginTickets } from './login-tickets.js';
import type { PasskeyLogin } from './passkey-login.js';
import type { StaffRequirement } from './staff-requirement.js';
import type { SessionService } from './session-service.js';

interface Client {
  address: string;
  userAgent: string;
}

/** The steps a login goes through, each called from here only (docs/ARCHITECTURE.md, the TOTP login). */
export interface LoginSteps {
  passwords: LoginPasswords;
  factors: AccountFactors;
  tickets: LoginTickets;
  passkeys: PasskeyLogin;
  staff: StaffRequirement;
  users: UserRepository;
  sessions: SessionService;
  devices: DeviceTokens;
}

/**
 * Logging in (product.md §11.4, §11.7), read top to bottom: the password (login-passwords.ts), then for an
 * account with a second factor a ticket (login-tickets.ts) and its second step, or a passkey alone
 * (passkey-login.ts); every way ends in `begin`, the one place a login starts a session.
 */
export class LoginService {
  constructor(private readonly steps: LoginSteps) {}

  /**
   * A new session for every successful login, or for an account with a second factor a ticket for the second
   * step; the same refusal for an unknown ID and a wrong password.
   */
  async login(
    input: Client & { id: string; password: string; device?: string },
  ): Promise<LoggedIn | LoginTicketReply> {
    const { user, device } = await this.steps.passwords.check(input);
    const factors = await this.steps.factors.factorsOf(user.id);
    if (factors.length > 0)
      return { ticket: await this.steps.tickets.start(user.id), second_factor: factors };
    return this.begin(user, input, device);
  }

  /**
   * An imported member's first login (product.md §11.4): the first password and their own new one; the first
   * is exchanged for the new, then the login goes on as with the new password.
   */
  async firstPassword(
    input: Client & { id: string; password: string; newPassword: string; device?: string },
    now: Date,
  ): Promise<LoggedIn | LoginTicketReply> {
    await this.steps.passwords.exchangeFirst(input, input.newPassword, now);
    return this.login({ ...input, password: input.newPassword });
  }

  /** The passkey request of a ticket's second step. */
  async secondOptions(ticket: string): Promise<WebauthnOptions> {
    return this.steps.tickets.options(ticket);
  }

  /** The second step of a ticket: a TOTP code, a passkey or a recovery code (product.md §11.7). */
  async second(input: Client & { ticket: string; step: SecondStep }): Promise<LoggedIn> {
    const uid = await this.steps.tickets.complete(input.ticket, input.step);
    return this.begin(await this.existing(uid), input);
  }

  /** A passkey request for a passwordless login; counted per address, as it stores a challenge. */
  async passkeyOptions(address: string): Promise<WebauthnOptions> {
    await this.steps.passwords.countAddress(address);
    return this.steps.passkeys.options();
  }

  /** A passwordless login with a passkey (discoverable credential), counted per address like a login. */
  async passkey(input: Client & { response: WebauthnResponse; device?: string }): Promise<LoggedIn> {
    await this.steps.passwords.countAddress(input.address);
    const uid = await this.steps.passkeys.userOf(input.response);
    const user = await this.existing(uid);
    const device = await this.steps.devices.check(input.device, user.loginId);
    return this.begin(user, input, device ? input.device : undefined);
  }

  private async existing(uid: number): Promise<UserRecord> {
    const user = await this.steps.users.findById(uid);
    if (!user) throw unauthorized(ja.errors.loginFailed);
    return user;
  }

  /**
   * The one place a login starts a session: staff without a second factor, while the owner requires one, get
   * a session that may only set one up. The device token presented is handed back, or a new one issued.
   */
  private async begin(user: UserRecord, client: Client, device?: string): Promise<LoggedIn> {
    const session = await this.steps.sessions.start(user.id, client.userAgent, {
      address: client.address,
      secondFactorSetup: await this.steps.staff.setupNeeded(user),
    });
    return {
      uid: user.id,
      role: user.role,
      rank: user.rank,
      name: user.name,
      session,
      device: device ?? (await this.steps.devices.issue(user.loginId)),
    };
  }
}
