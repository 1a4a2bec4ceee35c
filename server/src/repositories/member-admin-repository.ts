import { and, between, count, eq, ne, sql, type SQL } from 'drizzle-orm';
import { ROLE } from '@enishi/contract';
import type { Database } from '../db/client.js';
import { sessions, users, type UserRecord } from '../db/schema.js';
import { hasPostgresCode, PG_UNIQUE_VIOLATION } from '../db/errors.js';
import type { NewAuditRecord } from '../db/schema-admin.js';
import { insertAudit } from './audit-repository.js';
import { sameLoginId, type Transaction } from './user-repository.js';
import { peopleMatching, readingOrder } from './reading-order.js';

/** Which records a search looks at: men (101), women (201) or staff (roles 1 to 6). */
export type RecordKind = 'men' | 'women' | 'staff';

export interface UserSearch {
  kind: RecordKind;
  /** Part of the name or login ID; empty matches everyone. */
  keyword: string;
  /** Men only: 1 to 6, or 0 for every rank. */
  rank: number;
  limit: number;
}

export interface UserChanges {
  loginId: string;
  name: string;
  /** Only when the reading changes. */
  nameKana?: string | null;
  rank: number;
  introducer: string;
  /** Only when the password changes. */
  passwordHash?: string;
  updatedAt: Date;
}

/** The audit row to write for a change, built from the record before and after it. */
export type AuditEntry = (before: UserRecord | null, after: UserRecord | null) => NewAuditRecord;

export type UpdateResult =
  | { outcome: 'updated'; before: UserRecord; after: UserRecord }
  | { outcome: 'missing' }
  | { outcome: 'taken' };

export function kindCondition(kind: RecordKind): SQL {
  if (kind === 'men') return eq(users.role, ROLE.male);
  if (kind === 'women') return eq(users.role, ROLE.female);
  return between(users.role, 1, ROLE.staffMenuLimit);
}

const isUniqueViolation = (error: unknown) => hasPostgresCode(error, PG_UNIQUE_VIOLATION);

/**
 * Staff administration of user records. Every change takes the row lock, writes its audit row and commits
 * in one transaction, so the log never misses a change nor records one that did not happen. Creating a
 * user goes through UserRepository.create (which also makes a member's desk conversation).
 */
export class MemberAdminRepository {
  constructor(private readonly db: Database) {}

  /** In あいうえお order of the reading (reading-order.ts), at most `limit`, and how many match in all. */
  async search(query: UserSearch): Promise<{ rows: UserRecord[]; count: number }> {
    const conditions: (SQL | undefined)[] = [kindCondition(query.kind)];
    if (query.keyword) conditions.push(peopleMatching(query.keyword));
    if (query.kind === 'men' && query.rank > 0) conditions.push(eq(users.rank, query.rank));
    const where = and(...conditions);
    const [rows, total] = await Promise.all([
      this.db
        .select()
        .from(users)
        .where(where)
        .orderBy(...readingOrder())
        .limit(query.limit),
      this.db.select({ count: count() }).from(users).where(where),
    ]);
    return { rows, count: total[0]?.count ?? 0 };
  }

  private async lock(tx: Transaction, id: number): Promise<UserRecord | null> {
    const rows = await tx.select().from(users).where(eq(users.id, id)).for('update').limit(1);
    return rows[0] ?? null;
  }

  /**
   * Changes a record. A new password ends the user's sessions except `keepSessionId` (the one making the
   * change, when people edit themselves), so a reset locks out whoever knew the old one.
   */
  async update(
    id: number,
    changes: UserChanges,
    audit: AuditEntry,
    keepSessionId: string,
  ): Promise<UpdateResult> {
    try {
      return await this.db.transaction(async (tx): Promise<UpdateResult> => {
        const before = await this.lock(tx, id);
        if (!before) return { outcome: 'missing' };
        const clash = await tx
          .select({ id: users.id })
          .from(users)
          .where(and(sameLoginId(changes.loginId), ne(users.id, id)))
          .limit(1);
        if (clash.length > 0) return { outcome: 'taken' };
        const rows = await tx.update(users).set(changes).where(eq(users.id, id)).returning();
        const after = rows[0]!;
        if (changes.passwordHash) {
          await tx.delete(sessions).where(and(eq(sessions.userId, id), ne(sessions.id, keepSessionId)));
        }
        await insertAudit(tx, audit(before, after));
        return { outcome: 'updated', before, after };
      });
    } catch (error) {
      // Another update took the ID between our check and our write.
      if (isUniqueViolation(error)) return { outcome: 'taken' };
      throw error;
    }
  }

  /** Deletes a record; sessions and a member's desk conversation go with it (ON DELETE CASCADE). */
  async delete(id: number, audit: AuditEntry): Promise<UserRecord | null> {
    return this.db.transaction(async (tx) => {
      const before = await this.lock(tx, id);
      if (!before) return null;
      await tx.delete(users).where(eq(users.id, id));
      await insertAudit(tx, audit(before, null));
      return before;
    });
  }

  /** Ends every session of a user (a lost phone), audited; returns how many, or null for no such user. */
  async endSessions(id: number, audit: AuditEntry): Promise<number | null> {
    return this.db.transaction(async (tx) => {
      const user = await this.lock(tx, id);
      if (!user) return null;
      const ended = await tx.delete(sessions).where(eq(sessions.userId, id)).returning({ id: sessions.id });
      await insertAudit(tx, audit(user, user));
      return ended.length;
    });
  }

  /** Sets a user's picture (a stored profile image id); returns the record before and after. */
  async setImage(
    id: number,
    image: string,
    now: Date,
    audit: AuditEntry,
  ): Promise<{ before: UserRecord; after: UserRecord } | null> {
    return this.db.transaction(async (tx) => {
      const before = await this.lock(tx, id);
      if (!before) return null;
      const rows = await tx.update(users).set({ image, updatedAt: now }).where(eq(users.id, id)).returning();
      const after = rows[0]!;
      await insertAudit(tx, audit(before, after));
      return { before, after };
    });
  }

  /** Sets a role directly. Not reachable from any call (forms never change roles): operators and the demo. */
  async setRole(id: number, role: number): Promise<void> {
    await this.db.update(users).set({ role }).where(eq(users.id, id));
  }

  /** Is there any user at all (the demo refuses to touch a database that has some)? */
  async anyUser(): Promise<boolean> {
    const rows = await this.db
      .select({ one: sql`1` })
      .from(users)
      .limit(1);
    return rows.length > 0;
  }
}
