import { desc } from 'drizzle-orm';
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
}
