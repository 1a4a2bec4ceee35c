import { sql } from 'drizzle-orm';
import { check, index, integer, pgTable, primaryKey, serial, timestamp, varchar } from 'drizzle-orm/pg-core';
import type { SettingStatus } from '@enishi/contract';
import { createdAt, ownedBy } from './columns.js';
import { conversations, users } from './schema.js';

/*
 * Matchmaking: a man's favourite women and setting requests (product.md §18, §19.4). Re-exported by schema.ts;
 * `users` and `conversations` are only referenced inside callbacks, which keeps the import cycle harmless.
 */

/** A man's favourite women; a row is a star, removing it takes the star away. Private to the man. */
export const favorites = pgTable(
  'favorites',
  {
    userId: ownedBy('user_id', () => users.id),
    womanId: ownedBy('woman_id', () => users.id),
    createdAt: createdAt(),
  },
  (table) => [
    primaryKey({ columns: [table.userId, table.womanId] }),
    index('favorites_woman_id_idx').on(table.womanId),
  ],
);

/**
 * A setting request: three preferred instants, then arranged (one slot, a place, the pair's group talk),
 * declined (a reason) or cancelled by the man. Goes with either member's account. The woman is a member here
 * (`woman_id`) or one only the external enquiry service knows (product.md §19.11, decision 023): her id there
 * and her name as the service gave it when the man asked.
 */
export const settingRequests = pgTable(
  'setting_requests',
  {
    id: serial('id').primaryKey(),
    manId: ownedBy('man_id', () => users.id),
    womanId: integer('woman_id').references(() => users.id, { onDelete: 'cascade' }),
    enquiryWomanId: integer('enquiry_woman_id'),
    enquiryWomanName: varchar('enquiry_woman_name', { length: 100 }),
    preferred1: timestamp('preferred1', { withTimezone: true }).notNull(),
    preferred2: timestamp('preferred2', { withTimezone: true }).notNull(),
    preferred3: timestamp('preferred3', { withTimezone: true }).notNull(),
    note: varchar('note', { length: 500 }).notNull().default(''),
    status: varchar('status', { length: 10 }).$type<SettingStatus>().notNull().default('requested'),
    slot: integer('slot'),
    place: varchar('place', { length: 200 }),
    reason: varchar('reason', { length: 500 }),
    conversationId: integer('conversation_id').references(() => conversations.id, { onDelete: 'set null' }),
    decidedBy: integer('decided_by').references(() => users.id, { onDelete: 'set null' }),
    decidedAt: timestamp('decided_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (table) => [
    check(
      'setting_requests_status',
      sql`${table.status} in ('requested', 'arranged', 'declined', 'cancelled')`,
    ),
    check(
      'setting_requests_woman',
      sql`(${table.womanId} is null) <> (${table.enquiryWomanId} is null) and (${table.enquiryWomanId} is null) = (${table.enquiryWomanName} is null)`,
    ),
    check('setting_requests_slot', sql`${table.slot} is null or ${table.slot} between 1 and 3`),
    index('setting_requests_man_id_idx').on(table.manId, table.id),
    index('setting_requests_woman_id_idx').on(table.womanId, table.id),
    index('setting_requests_status_idx').on(table.status, table.id),
    // Reports (product.md §2.9): requests by the month they came in, decisions by the month they were made.
    index('setting_requests_created_at_idx').on(table.createdAt),
    index('setting_requests_decided_at_idx').on(table.decidedAt),
  ],
);

export type SettingRequestRecord = typeof settingRequests.$inferSelect;
