import { integer, text, timestamp, varchar, type AnyPgColumn } from 'drizzle-orm/pg-core';

/** Columns that recur across the tables of schema.ts, schema-content.ts and schema-admin.ts. */

export const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();

/** A required link to a row (a user, a talk…) that takes this row with it when it goes. */
export const ownedBy = (name: string, target: () => AnyPgColumn) =>
  integer(name).notNull().references(target, { onDelete: 'cascade' });

/** A stored image file (talk, news, banner): re-encoded without metadata, kept under DATA_DIR/media. */
export const storedImageColumns = () => ({
  id: varchar('id', { length: 32 }).primaryKey(),
  // Relative to DATA_DIR/media, so the data folder can move.
  path: text('path').notNull(),
  mime: varchar('mime', { length: 20 }).notNull(),
  width: integer('width').notNull(),
  height: integer('height').notNull(),
  bytes: integer('bytes').notNull(),
});
