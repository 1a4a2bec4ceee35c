import { eq } from 'drizzle-orm';
import type { Database } from '../db/client.js';
import { users, type NewUserRecord, type UserRecord } from '../db/schema.js';

export class UserRepository {
  constructor(private readonly db: Database) {}

  /** Inserts a user; null when the login ID is already taken. */
  async create(user: NewUserRecord): Promise<UserRecord | null> {
    const rows = await this.db
      .insert(users)
      .values(user)
      .onConflictDoNothing({ target: users.loginId })
      .returning();
    return rows[0] ?? null;
  }

  async findById(id: number): Promise<UserRecord | null> {
    const rows = await this.db.select().from(users).where(eq(users.id, id)).limit(1);
    return rows[0] ?? null;
  }

  async findByLoginId(loginId: string): Promise<UserRecord | null> {
    const rows = await this.db.select().from(users).where(eq(users.loginId, loginId)).limit(1);
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
