import { eq, sql } from 'drizzle-orm';
import type { Database } from '../db/client.js';
import { appSecrets } from '../db/schema.js';

export class SecretRepository {
  constructor(private readonly db: Database) {}

  /**
   * The secret stored under `name`, storing `candidate` first if there is none. Whichever instance
   * inserts first wins, and every instance then reads that one value.
   */
  async getOrCreate(name: string, candidate: string): Promise<string> {
    await this.db.insert(appSecrets).values({ name, value: candidate }).onConflictDoNothing();
    const rows = await this.db.select().from(appSecrets).where(eq(appSecrets.name, name)).limit(1);
    return rows[0]!.value;
  }

  /** Puts `value` in place of the secret stored under `name` (made if there was none). */
  async replace(name: string, value: string): Promise<void> {
    await this.db
      .insert(appSecrets)
      .values({ name, value })
      .onConflictDoUpdate({ target: appSecrets.name, set: { value, createdAt: sql`now()` } });
  }
}
