import { and, desc, eq } from 'drizzle-orm';
import type { Database } from '../db/client.js';
import { favorites } from '../db/schema.js';

/** A man's favourite women (product.md §19.4). */
export class FavoriteRepository {
  constructor(private readonly db: Database) {}

  /** The women he starred, newest first. */
  async list(userId: number): Promise<number[]> {
    const rows = await this.db
      .select({ womanId: favorites.womanId })
      .from(favorites)
      .where(eq(favorites.userId, userId))
      .orderBy(desc(favorites.createdAt));
    return rows.map((row) => row.womanId);
  }

  async add(userId: number, womanId: number, now: Date): Promise<void> {
    await this.db.insert(favorites).values({ userId, womanId, createdAt: now }).onConflictDoNothing();
  }

  async remove(userId: number, womanId: number): Promise<void> {
    await this.db.delete(favorites).where(and(eq(favorites.userId, userId), eq(favorites.womanId, womanId)));
  }
}
