import { sql } from 'drizzle-orm';
import { check, index, integer, jsonb, pgTable, serial, text, timestamp, varchar } from 'drizzle-orm/pg-core';

/*
 * One schema for both engines (embedded PGlite and PostgreSQL). Migrations in server/drizzle are generated
 * from this file with `npm run db:generate -w @enishi/server`.
 */

const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();

export const users = pgTable(
  'users',
  {
    // The `uid` of the wire format.
    id: serial('id').primaryKey(),
    // The `id` of the wire format: what the user types to log in.
    loginId: varchar('login_id', { length: 24 }).notNull().unique(),
    name: varchar('name', { length: 50 }).notNull(),
    passwordHash: text('password_hash').notNull(),
    role: integer('role').notNull(),
    rank: integer('rank').notNull().default(0),
    introducer: varchar('introducer', { length: 24 }).notNull().default(''),
    image: text('image'),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    check('users_login_id_format', sql`${table.loginId} ~ '^[A-Za-z0-9-]{1,24}$'`),
    index('users_role_idx').on(table.role),
  ],
);

export const sessions = pgTable(
  'sessions',
  {
    // sha256 (hex) of the token the client holds, so a leaked table does not hand out sessions.
    id: varchar('id', { length: 64 }).primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    pushSubscription: jsonb('push_subscription'),
    userAgent: varchar('user_agent', { length: 512 }).notNull().default(''),
  },
  (table) => [
    index('sessions_user_id_idx').on(table.userId),
    index('sessions_expires_at_idx').on(table.expiresAt),
  ],
);

export const applications = pgTable(
  'applications',
  {
    id: serial('id').primaryKey(),
    type: varchar('type', { length: 6 }).$type<'male' | 'female'>().notNull(),
    name: varchar('name', { length: 50 }).notNull(),
    age: integer('age').notNull(),
    email: varchar('email', { length: 254 }).notNull(),
    tel: varchar('tel', { length: 20 }).notNull(),
    createdAt: createdAt(),
  },
  (table) => [check('applications_type', sql`${table.type} in ('male', 'female')`)],
);

export type UserRecord = typeof users.$inferSelect;
export type NewUserRecord = typeof users.$inferInsert;
export type SessionRecord = typeof sessions.$inferSelect;
export type ApplicationRecord = typeof applications.$inferSelect;
