import { ROLE, can } from '@enishi/contract';
import { notFound } from '../errors.js';
import { hashPassword, randomPassword } from '../lib/passwords.js';
import { stageSecretFile } from '../lib/secret-file.js';
import type { Clock } from '../lib/clock.js';
import type { Delivery } from '../bus/delivery.js';
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
  /** The reading in hiragana (product.md §5.7); none when absent. */
  nameKana?: string | null;
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
        nameKana: user.nameKana ?? null,
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
   * password. "None yet" rather than "no users at all", so seeding members with the create-user script
   * before the first start still leaves the operator an owner account. A random password goes to
   * `passwordFile` (mode 0600, written before the account exists, so it is never lost), never to the log,
   * which log shippers keep (product.md §10.4); the log names the file.
   */
  async ensureOwner(
    owner: { loginId: string; password: string | undefined; passwordFile: string },
    log: Logger,
  ): Promise<void> {
    if (await this.users.existsWithRole(ROLE.owner)) return;
    const password = owner.password ?? randomPassword();
    // Staged under this process's name: another instance starting at once never removes or replaces it.
    const file = owner.password
      ? undefined
      : await stageSecretFile(owner.passwordFile, `ID: ${owner.loginId}\npassword: ${password}\n`);
    const created = await this.create({
      loginId: owner.loginId,
      password,
      name: 'オーナー',
      role: ROLE.owner,
    }).catch(async (error: unknown) => {
      await file?.drop();
      throw error;
    });
    if (!created) {
      await file?.drop();
      log.warn(`No owner account was created: the ID "${owner.loginId}" is already used by another user.`);
    } else if (!file) {
      log.info(`Created the owner account "${owner.loginId}" from OWNER_ID / OWNER_PASSWORD.`);
    } else {
      await file.keep();
      log.warn(
        `Created the owner account "${owner.loginId}". Its password is in ${owner.passwordFile} ` +
          '(readable by this user only): log in, change the password, then delete the file.',
      );
    }
  }
}
