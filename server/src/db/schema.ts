import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  boolean,
  check,
  index,
  integer,
  pgTable,
  primaryKey,
  serial,
  text,
  timestamp,
  unique,
  uniqueIndex,
  uuid,
  varchar,
  type AnyPgColumn,
} from 'drizzle-orm/pg-core';
import { createdAt, ownedBy, storedImageColumns } from './columns.js';
import { stamps } from './schema-stamps.js';
import type { DeskStatus } from '@enishi/contract';

/*
 * One schema for both engines (embedded PGlite and PostgreSQL). Migrations in server/drizzle are generated
 * from this file with `npm run db:generate -w @enishi/server`.
 */

export const users = pgTable(
  'users',
  {
    // The `uid` of the wire format.
    id: serial('id').primaryKey(),
    // The `id` of the wire format: what the user types to log in. Unique in any case (the index below):
    // `DEMO-MAN-1` and `demo-man-1` are one ID, found whichever way it is typed.
    loginId: varchar('login_id', { length: 24 }).notNull(),
    name: varchar('name', { length: 50 }).notNull(),
    // The reading in hiragana (ふりがな, product.md §5.7), what lists of people sort by; null when unknown.
    nameKana: varchar('name_kana', { length: 50 }),
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
    uniqueIndex('users_login_id_lower_key').on(sql`lower(${table.loginId})`),
  ],
);

export const sessions = pgTable(
  'sessions',
  {
    // sha256 (hex) of the token the client holds, so a leaked table does not hand out sessions.
    id: varchar('id', { length: 64 }).primaryKey(),
    userId: ownedBy('user_id', () => users.id),
    createdAt: createdAt(),
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    userAgent: varchar('user_agent', { length: 512 }).notNull().default(''),
    // What a person sees and ends a session by (product.md §11.6 /api/sessions): never the token or its hash.
    publicId: uuid('public_id').notNull().defaultRandom(),
    // The client's address at login, as the request gave it (honouring TRUST_PROXY).
    address: varchar('address', { length: 64 }).notNull().default(''),
    // A staff member who must set up a second factor first (product.md §11.7): every other call is refused.
    secondFactorSetup: boolean('second_factor_setup').notNull().default(false),
    // When the person last proved themselves again (/api/reauth, product.md §11.8); the login counts too.
    reauthAt: timestamp('reauth_at', { withTimezone: true }),
  },
  (table) => [
    index('sessions_user_id_idx').on(table.userId),
    uniqueIndex('sessions_public_id_idx').on(table.publicId),
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
    // Set when staff mark the application handled (or turn it into a member): it leaves the "new" badge.
    handledAt: timestamp('handled_at', { withTimezone: true }),
    handledBy: integer('handled_by').references((): AnyPgColumn => users.id, { onDelete: 'set null' }),
    // The member record made from it, if any.
    memberId: integer('member_id').references((): AnyPgColumn => users.id, { onDelete: 'set null' }),
  },
  (table) => [
    check('applications_type', sql`${table.type} in ('male', 'female')`),
    index('applications_new_idx')
      .on(table.id)
      .where(sql`${table.handledAt} is null`),
  ],
);

/*
 * Conversations. `desk` is a member's one talk with the staff desk (made with the member); `st` a group talk
 * of a man, a woman and staff; `staffroom` a room among staff; `sendmen`/`sendwomen` bulk-send histories.
 * What type a client sees depends on who looks (see conversation-presenter.ts).
 */
export const CONVERSATION_KINDS = ['desk', 'st', 'staffroom', 'sendmen', 'sendwomen'] as const;
export type ConversationKind = (typeof CONVERSATION_KINDS)[number];

export const conversations = pgTable(
  'conversations',
  {
    id: serial('id').primaryKey(),
    kind: varchar('kind', { length: 12 }).$type<ConversationKind>().notNull(),
    // The member of a desk conversation; the conversation goes with them.
    memberId: integer('member_id').references(() => users.id, { onDelete: 'cascade' }),
    // A group talk outlives a deleted member, for the staff's records.
    manId: integer('man_id').references(() => users.id, { onDelete: 'set null' }),
    womanId: integer('woman_id').references(() => users.id, { onDelete: 'set null' }),
    name: varchar('name', { length: 100 }).notNull().default(''),
    registeredBy: integer('registered_by').references(() => users.id, { onDelete: 'set null' }),
    // Room lists sort by this; it moves with every new message. Until the first message it equals created_at,
    // which is how a list tells a talk without messages (product.md §12.3).
    lastActivityAt: timestamp('last_activity_at', { withTimezone: true }).notNull().defaultNow(),
    createdAt: createdAt(),
    // A desk talk's status and 担当 (product.md §2.6); other kinds keep the defaults and never show them.
    deskStatus: varchar('desk_status', { length: 8 }).$type<DeskStatus>().notNull().default('open'),
    deskAssigneeId: integer('desk_assignee_id').references(() => users.id, { onDelete: 'set null' }),
  },
  (table) => [
    check('conversations_desk_status', sql`${table.deskStatus} in ('open', 'pending', 'done')`),
    index('conversations_desk_status_idx').on(table.kind, table.deskStatus),
    index('conversations_desk_assignee_idx').on(table.deskAssigneeId),
    check('conversations_kind', sql`${table.kind} in ('desk', 'st', 'staffroom', 'sendmen', 'sendwomen')`),
    check('conversations_desk_member', sql`(${table.kind} = 'desk') = (${table.memberId} is not null)`),
    // One desk conversation per member.
    uniqueIndex('conversations_member_id_idx').on(table.memberId),
    index('conversations_kind_activity_idx').on(table.kind, table.lastActivityAt),
    index('conversations_man_id_idx').on(table.manId),
    index('conversations_woman_id_idx').on(table.womanId),
  ],
);

export const messages = pgTable(
  'messages',
  {
    // Only grows, and rows commit in id order (see message-repository.ts), so `id > last_id` catches up.
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    conversationId: ownedBy('conversation_id', () => conversations.id),
    // Null once the sender's account is deleted; the message stays in the other side's history.
    senderId: integer('sender_id').references(() => users.id, { onDelete: 'set null' }),
    body: text('body').notNull().default(''),
    // Media ids, in the order the sender attached them.
    images: text('images')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    replyToId: bigint('reply_to_id', { mode: 'number' }).references((): AnyPgColumn => messages.id, {
      onDelete: 'set null',
    }),
    // A pinned announcement.
    announce: boolean('announce').notNull().default(false),
    // 0 a message, 1 a call record.
    messageType: integer('message_type').notNull().default(0),
    // A stamp (product.md §12.8): the message is that stamp alone (its body empty, no images of its own).
    stampId: integer('stamp_id').references((): AnyPgColumn => stamps.id, { onDelete: 'set null' }),
    // Chosen by the sending client, so a re-sent frame never makes a second message.
    clientId: uuid('client_id'),
    createdAt: createdAt(),
    // Soft delete: a deleted message is never returned again.
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
    // 送信取消 (product.md §15.4): taken back by its sender. The body then holds the text everyone sees in its
    // place and `images` is empty; the original is kept only in the audit log.
    unsentAt: timestamp('unsent_at', { withTimezone: true }),
  },
  (table) => [
    unique('messages_sender_client_id_key').on(table.senderId, table.clientId),
    index('messages_conversation_id_idx').on(table.conversationId, table.id),
    // Message search (product.md §11.6): substring search in any script, kanji and kana included. Needs the
    // pg_trgm extension, created by the migration that adds this index.
    index('messages_body_trgm_idx').using('gin', table.body.op('gin_trgm_ops')),
    // A sender's recently sent stamps (the picker's first row).
    index('messages_sender_stamp_idx')
      .on(table.senderId, table.id)
      .where(sql`${table.stampId} is not null`),
    // Reports (product.md §2.9): a talk's messages in time order with their senders, read from the index alone.
    index('messages_report_idx')
      .on(table.conversationId, table.createdAt, table.id, table.senderId)
      .where(sql`${table.deletedAt} is null`),
    index('messages_announce_idx')
      .on(table.conversationId)
      .where(sql`${table.announce} and ${table.deletedAt} is null`),
  ],
);

/** How far each user has read each conversation. */
export const conversationReads = pgTable(
  'conversation_reads',
  {
    conversationId: ownedBy('conversation_id', () => conversations.id),
    userId: ownedBy('user_id', () => users.id),
    lastReadMessageId: bigint('last_read_message_id', { mode: 'number' }).notNull().default(0),
  },
  (table) => [
    primaryKey({ columns: [table.conversationId, table.userId] }),
    index('conversation_reads_user_id_idx').on(table.userId),
  ],
);

/** A stored image: re-encoded without metadata, kept under DATA_DIR/media, served by a signed URL. */
export const media = pgTable(
  'media',
  {
    ...storedImageColumns(),
    conversationId: ownedBy('conversation_id', () => conversations.id),
    // Set in the transaction that stores the message; an image without one is never served.
    messageId: bigint('message_id', { mode: 'number' }).references(() => messages.id, {
      onDelete: 'cascade',
    }),
    ownerId: integer('owner_id').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
  },
  (table) => [index('media_message_id_idx').on(table.messageId)],
);

/** Secrets generated once and shared by every instance (e.g. the media URL signing key). */
export const appSecrets = pgTable('app_secrets', {
  name: varchar('name', { length: 50 }).primaryKey(),
  value: text('value').notNull(),
  createdAt: createdAt(),
});

export type UserRecord = typeof users.$inferSelect;
export type NewUserRecord = typeof users.$inferInsert;
export type SessionRecord = typeof sessions.$inferSelect;
export type ApplicationRecord = typeof applications.$inferSelect;
export type ConversationRecord = typeof conversations.$inferSelect;
export type MessageRecord = typeof messages.$inferSelect;
export type MediaRecord = typeof media.$inferSelect;

// Staff administration (audit log).
export * from './schema-admin.js';

// Member content: news, banners and bulk sends.
export * from './schema-content.js';

// Member profiles, photos, rank history and the club's own code lists.
export * from './schema-profile.js';
// The staff desk: saved replies and notes on members.
export * from './schema-desk.js';

// Matchmaking: favourites and setting requests.
export * from './schema-matching.js';

// A second factor at login: TOTP, passkeys, recovery codes, login tickets, the staff requirement.
export * from './schema-second-factor.js';

// Notices about one's own account; the second step's lock (product.md §11.8).
export * from './schema-account-safety.js';

// Stamps: the club's sets and the stamps in them.
export * from './schema-stamps.js';
// The club's calendar: closing days.
export * from './schema-calendar.js';
export * from './schema-push.js';
