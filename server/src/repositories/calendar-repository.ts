import { and, asc, eq, gte, lte, sql } from 'drizzle-orm';
import type { Database } from '../db/client.js';
import { businessHours, closingDays, type BusinessHoursRecord, type ClosingDayRecord } from '../db/schema.js';
import type { NewAuditRecord } from '../db/schema-admin.js';
import { insertAudit } from './audit-repository.js';

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
    audit: NewAuditRecord,
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
      await insertAudit(tx, audit);
      return { id: row!.id };
    });
  }

  /** Deletes a closing with its audit row (made from the deleted closing); false when there was none. */
  async remove(id: number, audit: (removed: ClosingDayRecord) => NewAuditRecord): Promise<boolean> {
    return this.db.transaction(async (tx) => {
      const [removed] = await tx.delete(closingDays).where(eq(closingDays.id, id)).returning();
      if (!removed) return false;
      await insertAudit(tx, audit(removed));
      return true;
    });
  }

  /** The weekdays the admin has saved hours for (none until the first save). */
  async hours(): Promise<BusinessHoursRecord[]> {
    return this.db.select().from(businessHours).orderBy(asc(businessHours.weekday));
  }

  /** Replaces the hours of all seven weekdays, with the audit row, in one transaction. */
  async setHours(days: BusinessHoursRecord[], audit: NewAuditRecord): Promise<void> {
    await this.db.transaction(async (tx) => {
      await tx.delete(businessHours);
      await tx.insert(businessHours).values(days);
      await insertAudit(tx, audit);
    });
  }
}
