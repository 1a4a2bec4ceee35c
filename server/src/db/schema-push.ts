import { index, integer, jsonb, pgTable, serial, text, varchar } from 'drizzle-orm/pg-core';
import { createdAt } from './columns.js';
import { sessions, users } from './schema.js';

/**
 * Push subscriptions (product.md §16): one per browser endpoint, so a person has one per device and an endpoint
 * registered again by someone else (a shared phone) moves to them.
 */
export const pushSubscriptions = pgTable(
  'push_subscriptions',
  {
    id: serial('id').primaryKey(),
    endpoint: text('endpoint').notNull().unique(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    p256dh: text('p256dh').notNull(),
    auth: text('auth').notNull(),
    // The session that registered it: a device whose session ends (logout, expiry, a new password
    // elsewhere) stops receiving the user's pushes with it (product.md §16.3).
    sessionId: varchar('session_id', { length: 64 }).references(() => sessions.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
  },
  (table) => [
    index('push_subscriptions_user_id_idx').on(table.userId),
    index('push_subscriptions_session_id_idx').on(table.sessionId),
  ],
);

/** What each person receives by push (PushSettings of the contract); none stored means the defaults. */
export const pushSettings = pgTable('push_settings', {
  userId: integer('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  settings: jsonb('settings').notNull(),
});
