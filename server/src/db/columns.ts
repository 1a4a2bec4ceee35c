import { integer, timestamp, type AnyPgColumn } from 'drizzle-orm/pg-core';

/** Columns that recur across the tables of schema.ts, schema-content.ts and schema-admin.ts. */

export const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();

/** A required link to a row (a user, a talk…) that takes this row with it when it goes. */
export const ownedBy = (name: string, target: () => AnyPgColumn) =>
  integer(name).notNull().references(target, { onDelete: 'cascade' });
