import { ROLE, can } from '@enishi/contract';
import { notFound } from '../errors.js';
import { hashPassword, randomPassword } from '../lib/passwords.js';
import type { Clock } from '../lib/clock.js';
import type { Delivery } from '../realtime/delivery.js';
import type { UserRecord } from '../db/schema.js';
import type { Transaction, UserRepository } from '../repositories/user-repository.js';
import type { Actor } from './session-service.js';

export interface NewUser {
  loginId: string;
  password: string;
  name: string;
  role: number;
  rank?: number;
  introducer?: string;
}

export interface Logger {
  info(message: string): void;
  warn(message: string): void;
}

export class UserService {
  constructor(
    private readonly users: UserRepository,
    private readonly clock: Clock,
    private readonly delivery?: Delivery,
  ) {}

  /**
   * Creates a user with a hashed password; null when the login ID is already taken. `alsoInTransaction`
   * joins the insert's transaction (e.g. an audit row).
   */
  async create(
    user: NewUser,
    alsoInTransaction?: (tx: Transaction, created: UserRecord) => Promise<void>,
  ): Promise<UserRecord | null> {
    const now = new Date(this.clock());
    const created = await this.users.create(
      {
        loginId: user.loginId,
        passwordHash: await hashPassword(user.password),
        name: user.name,
        role: user.role,
        rank: user.rank ?? 0,
        introducer: user.introducer ?? '',
        createdAt: now,
        updatedAt: now,
      },
      alsoInTransaction,
    );
    // A member comes with their desk talk (user-repository.ts): it joins the staff's room lists.
    if (created) await this.delivery?.roomListsChanged({ uids: [created.id], staff: true });
    return created;
  }

  /** A user the caller may see; anything else is "not found", so members cannot probe for other ids. */
  async get(actor: Actor, uid: number): Promise<UserRecord> {
    if (!can(actor, 'user.read', { uid })) throw notFound();
    const user = await this.users.findById(uid);
    if (!user) throw notFound();
    return user;
  }

  /** Deletes a user and, through the foreign key, every session of theirs; their chat sockets close. */
  async delete(uid: number): Promise<boolean> {
    const deleted = await this.users.delete(uid);
    if (deleted) await this.delivery?.toUser(uid, 'session.ended', { sessionId: null });
    return deleted;
  }

  /**
   * Creates the owner (role 2) when the database has none, from OWNER_ID / OWNER_PASSWORD or with a random
   * password that is logged this once. "None yet" rather than "no users at all", so seeding members with
   * the create-user script before the first start still leaves the operator an owner account.
   */
  async ensureOwner(owner: { loginId: string; password: string | undefined }, log: Logger): Promise<void> {
    if (await this.users.existsWithRole(ROLE.owner)) return;
    const password = owner.password ?? randomPassword();
    const created = await this.create({
      loginId: owner.loginId,
      password,
      name: 'オーナー',
      role: ROLE.owner,
    });
    if (!created) {
      log.warn(`No owner account was created: the ID "${owner.loginId}" is already used by another user.`);
    } else if (owner.password) {
      log.info(`Created the owner account "${owner.loginId}" from OWNER_ID / OWNER_PASSWORD.`);
    } else {
      log.warn(
        `Created the owner account. ID: ${owner.loginId}  password: ${password}  ` +
          '(shown only this once; set OWNER_ID / OWNER_PASSWORD before the first start to choose them)',
      );
    }
  }
}
