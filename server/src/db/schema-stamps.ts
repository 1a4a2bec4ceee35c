import { boolean, index, integer, pgTable, serial, text, uniqueIndex, varchar } from 'drizzle-orm/pg-core';
import { createdAt, ownedBy } from './columns.js';
import { users } from './schema.js';

/*
 * スタンプ (product.md §12.8): sets of pictures sent alone in a talk. The club's own set (`builtin`) is seeded
 * at the first start from server/assets/stamps/club (StampService); staff add more. A message that is a
 * stamp names it in messages.stamp_id. schema.ts re-exports this file.
 */
export const stampSets = pgTable(
  'stamp_sets',
  {
    id: serial('id').primaryKey(),
    name: varchar('name', { length: 40 }).notNull(),
    // 'club' for the club's own set: seeded once, whichever instance starts first.
    builtin: varchar('builtin', { length: 20 }),
    // A stopped set leaves the picker, and its stamps can no longer be sent; those sent stay in their talks.
    enabled: boolean('enabled').notNull().default(true),
    createdBy: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
  },
  (table) => [uniqueIndex('stamp_sets_builtin_key').on(table.builtin)],
);

/** One stamp: its picture is a stored image file (re-encoded without metadata) under DATA_DIR/media. */
export const stamps = pgTable(
  'stamps',
  {
    id: serial('id').primaryKey(),
    setId: ownedBy('set_id', () => stampSets.id),
    label: varchar('label', { length: 20 }).notNull(),
    position: integer('position').notNull().default(0),
    // The picture, as stored images are (columns.ts storedImageColumns), under a media id of its own.
    imageId: varchar('image_id', { length: 32 }).notNull(),
    path: text('path').notNull(),
    mime: varchar('mime', { length: 20 }).notNull(),
    width: integer('width').notNull(),
    height: integer('height').notNull(),
    bytes: integer('bytes').notNull(),
  },
  (table) => [
    index('stamps_set_id_idx').on(table.setId, table.position),
    uniqueIndex('stamps_image_id_key').on(table.imageId),
  ],
);

export type StampSetRecord = typeof stampSets.$inferSelect;
export type StampRecord = typeof stamps.$inferSelect;
