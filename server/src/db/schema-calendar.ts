import { boolean, check, date, integer, pgTable, serial, smallint, varchar } from 'drizzle-orm/pg-core';
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

/**
 * The club's business hours per weekday (product.md §9.3), 0 Sunday to 6 Saturday, minutes after midnight in
 * Japan time. A weekday without a row keeps DEFAULT_HOURS (packages/contract/src/auto-reply.ts), so nothing
 * changes until the admin saves the hours.
 */
export const businessHours = pgTable(
  'business_hours',
  {
    weekday: smallint('weekday').primaryKey(),
    open: boolean('open').notNull(),
    opensAt: smallint('opens_at').notNull(),
    closesAt: smallint('closes_at').notNull(),
  },
  (table) => [
    check('business_hours_weekday', sql`${table.weekday} between 0 and 6`),
    check(
      'business_hours_times',
      sql`0 <= ${table.opensAt} and ${table.opensAt} < ${table.closesAt} and ${table.closesAt} < 1440`,
    ),
  ],
);
export type BusinessHoursRecord = typeof businessHours.$inferSelect;
