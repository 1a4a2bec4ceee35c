import { check, date, integer, pgTable, serial, varchar } from 'drizzle-orm/pg-core';
import { sql } from 'drizzle-orm';
import { createdAt } from './columns.js';
import { users } from './schema.js';

/*
 * The club's closing days (休業日, product.md §9.3): ranges of Japan calendar dates, both ends included, that
 * the desk's auto-reply skips. No two share a day (CalendarService checks under a table lock). schema.ts
 * re-exports this file.
 */
export const closingDays = pgTable(
  'closing_days',
  {
    id: serial('id').primaryKey(),
    name: varchar('name', { length: 40 }).notNull(),
    startDate: date('start_date', { mode: 'string' }).notNull(),
    endDate: date('end_date', { mode: 'string' }).notNull(),
    createdBy: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
  },
  (table) => [check('closing_days_range', sql`${table.endDate} >= ${table.startDate}`)],
);
export type ClosingDayRecord = typeof closingDays.$inferSelect;
