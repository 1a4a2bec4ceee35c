import { ROLE } from '@enishi/contract';
import { and, asc, between, desc, eq, inArray, lte, ne, notExists, or, sql } from 'drizzle-orm';
import type { Database } from '../db/client.js';
import {
  sessions,
  totpFactors,
  users,
  webauthnCredentials,
  type SessionRecord,
  type UserRecord,
} from '../db/schema.js';

export interface NewSession {
  id: string;
  userId: number;
  userAgent: string;
  address?: string;
  now: Date;
  expiresAt: Date;
  /** Staff who must set up a second factor before anything else (product.md §11.7). */
  secondFactorSetup?: boolean;
}

export class SessionRepository {
  constructor(private readonly db: Database) {}

  async create(session: NewSession): Promise<void> {
    await this.db.insert(sessions).values({
      id: session.id,
      userId: session.userId,
      userAgent: session.userAgent,
      address: session.address ?? '',
      createdAt: session.now,
      lastSeenAt: session.now,
      expiresAt: session.expiresAt,
      secondFactorSetup: session.secondFactorSetup ?? false,
    });
  }

  /** The user has set up a second factor: their sessions may do everything again. */
  async clearSecondFactorSetup(userId: number): Promise<void> {
    await this.db
      .update(sessions)
      .set({ secondFactorSetup: false })
      .where(and(eq(sessions.userId, userId), eq(sessions.secondFactorSetup, true)));
  }

  /**
   * The owner switched the staff requirement on: every session of staff without a second factor may only set
   * one up from now (product.md §11.7). Returns whose sessions changed.
   */
  async requireSetupOfStaffWithoutFactor(): Promise<number[]> {
    const noTotp = notExists(
      this.db
        .select({ one: sql`1` })
        .from(totpFactors)
        .where(and(eq(totpFactors.userId, users.id), sql`${totpFactors.confirmedAt} is not null`)),
    );
    const noPasskey = notExists(
      this.db
        .select({ one: sql`1` })
        .from(webauthnCredentials)
        .where(eq(webauthnCredentials.userId, users.id)),
    );
    const staffWithoutFactor = this.db
      .select({ id: users.id })
      .from(users)
      .where(and(between(users.role, ROLE.admin, ROLE.staffMenuLimit), noTotp, noPasskey));
    const rows = await this.db
      .update(sessions)
      .set({ secondFactorSetup: true })
      .where(and(eq(sessions.secondFactorSetup, false), inArray(sessions.userId, staffWithoutFactor)))
      .returning({ userId: sessions.userId });
    return [...new Set(rows.map((row) => row.userId))];
  }

  /** The owner switched the requirement off: nobody's session is held to the setup screens any more. */
  async liftSetupOfAll(): Promise<number[]> {
    const rows = await this.db
      .update(sessions)
      .set({ secondFactorSetup: false })
      .where(eq(sessions.secondFactorSetup, true))
      .returning({ userId: sessions.userId });
    return [...new Set(rows.map((row) => row.userId))];
  }

  /** Since when the session counts as freshly proven: its login, or its last /api/reauth. Null: no session. */
  async provenAt(id: string): Promise<Date | null> {
    const rows = await this.db
      .select({ createdAt: sessions.createdAt, reauthAt: sessions.reauthAt })
      .from(sessions)
      .where(eq(sessions.id, id))
      .limit(1);
    const row = rows[0];
    if (!row) return null;
    return row.reauthAt && row.reauthAt > row.createdAt ? row.reauthAt : row.createdAt;
  }

  async markProven(id: string, now: Date): Promise<boolean> {
    const rows = await this.db
      .update(sessions)
      .set({ reauthAt: now })
      .where(eq(sessions.id, id))
      .returning({ id: sessions.id });
    return rows.length > 0;
  }

  /** The session and its user in one round trip; null when there is no such session. */
  async findWithUser(id: string): Promise<{ session: SessionRecord; user: UserRecord } | null> {
    const rows = await this.db
      .select({ session: sessions, user: users })
      .from(sessions)
      .innerJoin(users, eq(users.id, sessions.userId))
      .where(eq(sessions.id, id))
      .limit(1);
    return rows[0] ?? null;
  }

  async touch(id: string, now: Date): Promise<void> {
    await this.db.update(sessions).set({ lastSeenAt: now }).where(eq(sessions.id, id));
  }

  async delete(id: string): Promise<boolean> {
    const rows = await this.db.delete(sessions).where(eq(sessions.id, id)).returning({ id: sessions.id });
    return rows.length > 0;
  }

  /** A user's sessions, the most recently used first. */
  async ofUser(userId: number): Promise<SessionRecord[]> {
    return this.db
      .select()
      .from(sessions)
      .where(eq(sessions.userId, userId))
      .orderBy(desc(sessions.lastSeenAt), asc(sessions.createdAt));
  }

  /** Deletes the user's session with this public id; returns its id (the token's hash), or null for none. */
  async deleteOwned(userId: number, publicId: string): Promise<string | null> {
    const rows = await this.db
      .delete(sessions)
      .where(and(eq(sessions.userId, userId), eq(sessions.publicId, publicId)))
      .returning({ id: sessions.id });
    return rows[0]?.id ?? null;
  }

  /** Deletes every session of the user except `keepId`; returns how many. */
  async deleteOthers(userId: number, keepId: string): Promise<number> {
    const rows = await this.db
      .delete(sessions)
      .where(and(eq(sessions.userId, userId), ne(sessions.id, keepId)))
      .returning({ id: sessions.id });
    return rows.length;
  }

  /** Removes sessions past their absolute expiry or idle since before `idleCutoff`; returns how many. */
  async deleteExpired(now: Date, idleCutoff: Date): Promise<number> {
    const rows = await this.db
      .delete(sessions)
      .where(or(lte(sessions.expiresAt, now), lte(sessions.lastSeenAt, idleCutoff)))
      .returning({ id: sessions.id });
    return rows.length;
  }
}
