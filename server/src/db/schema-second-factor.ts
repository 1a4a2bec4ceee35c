import {
  bigint,
  boolean,
  index,
  integer,
  pgTable,
  primaryKey,
  text,
  timestamp,
  varchar,
} from 'drizzle-orm/pg-core';
import { createdAt, ownedBy } from './columns.js';
import { users } from './schema.js';

/*
 * A second factor at login (product.md §11.7, decision 018): TOTP, passkeys (WebAuthn), recovery codes, the
 * login tickets between the password and the second step, and the club's security settings. Re-exported by
 * schema.ts; `users` is only referenced inside callbacks, which keeps the import cycle harmless.
 */

/** One TOTP secret per person: pending (confirmed_at null) until a first code proves the app has it. */
export const totpFactors = pgTable('totp_factors', {
  userId: integer('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  secret: varchar('secret', { length: 64 }).notNull(),
  confirmedAt: timestamp('confirmed_at', { withTimezone: true }),
  // The last time step a code was accepted for: a code is never accepted twice (RFC 6238 §5.2).
  lastStep: bigint('last_step', { mode: 'number' }),
  createdAt: createdAt(),
});

/** Passkeys: the public key of each credential and its signature counter. */
export const webauthnCredentials = pgTable(
  'webauthn_credentials',
  {
    // The credential id, base64url, as the browser sends it.
    id: varchar('id', { length: 512 }).primaryKey(),
    userId: ownedBy('user_id', () => users.id),
    publicKey: text('public_key').notNull(),
    counter: bigint('counter', { mode: 'number' }).notNull().default(0),
    transports: varchar('transports', { length: 200 }).notNull().default(''),
    name: varchar('name', { length: 50 }).notNull(),
    createdAt: createdAt(),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
  },
  (table) => [index('webauthn_credentials_user_id_idx').on(table.userId)],
);

/** Ten one-time codes per person, stored as SHA-256 of the code; `used_at` set once used. */
export const recoveryCodes = pgTable(
  'recovery_codes',
  {
    userId: ownedBy('user_id', () => users.id),
    codeHash: varchar('code_hash', { length: 64 }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
  },
  (table) => [primaryKey({ columns: [table.userId, table.codeHash] })],
);

/** Between the password and the second step: 5 minutes, 5 tries; stored as SHA-256 of the ticket. */
export const loginTickets = pgTable(
  'login_tickets',
  {
    id: varchar('id', { length: 64 }).primaryKey(),
    userId: ownedBy('user_id', () => users.id),
    tries: integer('tries').notNull().default(0),
    // The WebAuthn challenge of this ticket's passkey step, once asked for.
    challenge: varchar('challenge', { length: 128 }),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (table) => [index('login_tickets_expires_at_idx').on(table.expiresAt)],
);

/** Challenges of passkey registration (a user's) and passwordless login (nobody's yet): each used once. */
export const webauthnChallenges = pgTable(
  'webauthn_challenges',
  {
    challenge: varchar('challenge', { length: 128 }).primaryKey(),
    purpose: varchar('purpose', { length: 10 }).$type<'register' | 'login' | 'reauth'>().notNull(),
    userId: integer('user_id').references(() => users.id, { onDelete: 'cascade' }),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (table) => [index('webauthn_challenges_expires_at_idx').on(table.expiresAt)],
);

/** The club's security switches (one row, id 1), changed by the owner and audited. */
export const securitySettings = pgTable('security_settings', {
  id: integer('id').primaryKey().default(1),
  staffSecondFactor: boolean('staff_second_factor').notNull().default(false),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

export type WebauthnCredentialRecord = typeof webauthnCredentials.$inferSelect;
