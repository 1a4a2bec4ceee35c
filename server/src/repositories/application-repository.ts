import { and, count, desc, eq, isNull } from 'drizzle-orm';
import type { Database } from '../db/client.js';
import { applications, type ApplicationRecord } from '../db/schema.js';

export interface NewApplication {
  type: 'male' | 'female';
  name: string;
  age: number;
  email: string;
  tel: string;
}

export class ApplicationRepository {
  constructor(private readonly db: Database) {}

  async create(application: NewApplication, now: Date): Promise<ApplicationRecord> {
    const rows = await this.db
      .insert(applications)
      .values({ ...application, createdAt: now })
      .returning();
    return rows[0]!;
  }

  /** Newest first. Ids only grow, so ordering by id is the order of arrival and uses the primary key. */
  async list(offset: number, limit: number): Promise<ApplicationRecord[]> {
    return this.db.select().from(applications).orderBy(desc(applications.id)).offset(offset).limit(limit);
  }

  /** How many are not handled yet (the inbox badge); a partial index keeps this cheap. */
  async countNew(): Promise<number> {
    const rows = await this.db
      .select({ n: count() })
      .from(applications)
      .where(isNull(applications.handledAt));
    return rows[0]?.n ?? 0;
  }

  /**
   * Marks one handled (the first time only: a second mark keeps who and when), with the member made from it.
   * False when there is no such application.
   */
  async markHandled(id: number, by: number, memberId: number | null, now: Date): Promise<boolean> {
    const found = await this.db
      .select({ id: applications.id })
      .from(applications)
      .where(eq(applications.id, id));
    if (!found[0]) return false;
    await this.db
      .update(applications)
      .set({ handledAt: now, handledBy: by })
      .where(and(eq(applications.id, id), isNull(applications.handledAt)));
    if (memberId !== null) {
      await this.db.update(applications).set({ memberId }).where(eq(applications.id, id));
    }
    return true;
  }
}
