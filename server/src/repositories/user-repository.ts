import { and, eq, sql, type SQL } from 'drizzle-orm';
import { can } from '@enishi/contract';
import type { Database } from '../db/client.js';
import { conversations, users, type NewUserRecord, type UserRecord } from '../db/schema.js';

/** The user whose login ID is this one in any case (the unique index on lower(login_id) serves it). */
export const sameLoginId = (loginId: string): SQL => sql`lower(${users.loginId}) = lower(${loginId})`;

/** The handle a transaction callback gets; repositories that join a transaction take it. */
export type Transaction = Parameters<Parameters<Database['transaction']>[0]>[0];

export class UserRepository {
  constructor(private readonly db: Database) {}

  /**
   * Inserts a user; null when the login ID is already taken. A member gets their conversation with the
   * staff desk in the same transaction, so no member ever exists without one (product.md §12.1). `alsoInTransaction`
   * runs in that transaction after a successful insert (staff administration writes its audit row there).
   */
  async create(
    user: NewUserRecord,
    alsoInTransaction?: (tx: Transaction, created: UserRecord) => Promise<void>,
  ): Promise<UserRecord | null> {
    return this.db.transaction(async (tx) => {
      const rows = await tx
        .insert(users)
        .values(user)
        .onConflictDoNothing() // the login ID is taken, in any case
        .returning();
      const created = rows[0];
      if (created && can(created, 'talk.desk')) {
        await tx.insert(conversations).values({
          kind: 'desk',
          memberId: created.id,
          lastActivityAt: created.createdAt,
          createdAt: created.createdAt,
        });
      }
      if (created && alsoInTransaction) await alsoInTransaction(tx, created);
      return created ?? null;
    });
  }

  async findById(id: number): Promise<UserRecord | null> {
    const rows = await this.db.select().from(users).where(eq(users.id, id)).limit(1);
    return rows[0] ?? null;
  }

  /**
   * Replaces a password hash only if it is still `from`: a first password is exchanged once, so two
   * exchanges at once store one (product.md §11.4). False when it had changed.
   */
  async replacePasswordHash(id: number, from: string, to: string, now: Date): Promise<boolean> {
    const rows = await this.db
      .update(users)
      .set({ passwordHash: to, updatedAt: now })
      .where(and(eq(users.id, id), eq(users.passwordHash, from)))
      .returning({ id: users.id });
    return rows.length > 0;
  }

  async findByLoginId(loginId: string): Promise<UserRecord | null> {
    const rows = await this.db.select().from(users).where(sameLoginId(loginId)).limit(1);
    return rows[0] ?? null;
  }

  async existsWithRole(role: number): Promise<boolean> {
    const rows = await this.db.select({ id: users.id }).from(users).where(eq(users.role, role)).limit(1);
    return rows.length > 0;
  }

  /** Deletes the user; their sessions go with them (ON DELETE CASCADE). */
  async delete(id: number): Promise<boolean> {
    const rows = await this.db.delete(users).where(eq(users.id, id)).returning({ id: users.id });
    return rows.length > 0;
  }
}
