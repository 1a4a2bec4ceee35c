import { and, asc, eq, gte, lte, sql } from 'drizzle-orm';
import type { Database } from '../db/client.js';
import { closingDays, type ClosingDayRecord } from '../db/schema.js';

/** A closing to store: its name, its dates (`YYYY-MM-DD`, both included) and who added it. */
export interface NewClosing {
  name: string;
  startDate: string;
  endDate: string;
  createdBy: number;
}

/** SQL of the club's closing days (product.md §9.3). */
export class CalendarRepository {
  constructor(private readonly db: Database) {}

  /** The closings that end on `fromDate` or later, by start date. */
  async closingsFrom(fromDate: string): Promise<ClosingDayRecord[]> {
    return this.db
      .select()
      .from(closingDays)
      .where(gte(closingDays.endDate, fromDate))
      .orderBy(asc(closingDays.startDate), asc(closingDays.id));
  }

  /**
   * Stores a closing unless one shares a day with it: the table is locked against other adds meanwhile, so
   * two admins adding overlapping closings at once store one. Returns the new id, or the overlapping one.
   */
  async addUnlessOverlapping(
    closing: NewClosing,
  ): Promise<{ id: number } | { overlapping: ClosingDayRecord }> {
    return this.db.transaction(async (tx) => {
      await tx.execute(sql`LOCK TABLE ${closingDays} IN SHARE ROW EXCLUSIVE MODE`);
      const [overlapping] = await tx
        .select()
        .from(closingDays)
        .where(and(lte(closingDays.startDate, closing.endDate), gte(closingDays.endDate, closing.startDate)))
        .orderBy(asc(closingDays.startDate))
        .limit(1);
      if (overlapping) return { overlapping };
      const [row] = await tx.insert(closingDays).values(closing).returning({ id: closingDays.id });
      return { id: row!.id };
    });
  }

  /** Deletes a closing; false when there was none. */
  async remove(id: number): Promise<boolean> {
    const rows = await this.db
      .delete(closingDays)
      .where(eq(closingDays.id, id))
      .returning({ id: closingDays.id });
    return rows.length > 0;
  }
}
