import { sql } from 'drizzle-orm';
import {
  bigserial,
  index,
  integer,
  pgTable,
  serial,
  text,
  timestamp,
  uniqueIndex,
  varchar,
} from 'drizzle-orm/pg-core';
import { createdAt, ownedBy } from './columns.js';
import { users } from './schema.js';

/*
 * The staff desk (product.md §2.6): saved replies and staff notes on members. Re-exported by schema.ts.
 * The message search has no table of its own: a pg_trgm GIN index on messages.body (schema.ts).
 */

/** Saved replies (定型文), shared by all staff; `name` is the shortcut typed after `/`, unique in any case. */
export const cannedReplies = pgTable(
  'canned_replies',
  {
    id: serial('id').primaryKey(),
    name: varchar('name', { length: 20 }).notNull(),
    body: text('body').notNull(),
    updatedBy: integer('updated_by').references(() => users.id, { onDelete: 'set null' }),
    updatedByName: varchar('updated_by_name', { length: 50 }).notNull(),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [uniqueIndex('canned_replies_name_lower_key').on(sql`lower(${table.name})`)],
);

/** Notes staff keep on a member; they go with the member. Never part of anything a member receives. */
export const memberNotes = pgTable(
  'member_notes',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    memberId: ownedBy('member_id', () => users.id),
    // Null once the author's account is deleted; `author_name` keeps who wrote it.
    authorId: integer('author_id').references(() => users.id, { onDelete: 'set null' }),
    authorName: varchar('author_name', { length: 50 }).notNull(),
    body: text('body').notNull(),
    createdAt: createdAt(),
  },
  (table) => [index('member_notes_member_id_idx').on(table.memberId, table.id)],
);

export type CannedReplyRecord = typeof cannedReplies.$inferSelect;
export type MemberNoteRecord = typeof memberNotes.$inferSelect;
