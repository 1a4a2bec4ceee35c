import { sql } from 'drizzle-orm';
import {
  bigint,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  serial,
  text,
  timestamp,
  varchar,
} from 'drizzle-orm/pg-core';
import { createdAt, ownedBy, storedImageColumns } from './columns.js';
import { messages, users } from './schema.js';

/*
 * Member content: news and ad banners for one group each (type 1 men, 2 women), their images, and the
 * record of bulk sends. schema.ts re-exports this file, so the migrations and the one Database type cover it.
 */

export const news = pgTable(
  'news',
  {
    id: serial('id').primaryKey(),
    type: integer('type').notNull(),
    title: varchar('title', { length: 100 }).notNull(),
    body: text('body').notNull(),
    createdBy: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    check('news_type', sql`${table.type} in (1, 2)`),
    index('news_type_id_idx').on(table.type, table.id),
  ],
);

/**
 * How far each member has seen the news of their group: everything up to this news id. One row per member
 * instead of one per member and news item; news ids only grow, so "unread" is "newer than the mark".
 */
export const newsSeen = pgTable('news_seen', {
  userId: integer('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  lastSeenNewsId: integer('last_seen_news_id').notNull().default(0),
});

export const banners = pgTable(
  'banners',
  {
    id: serial('id').primaryKey(),
    type: integer('type').notNull(),
    // http or https only (checked at the edge); shown as a link that opens a new tab.
    url: varchar('url', { length: 2000 }).notNull(),
    createdBy: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
  },
  (table) => [
    check('banners_type', sql`${table.type} in (1, 2)`),
    index('banners_type_id_idx').on(table.type, table.id),
  ],
);

/**
 * An image of a news item or a banner: re-encoded without metadata and kept under DATA_DIR/media like talk
 * images, served by a signed URL at /media/content/<id>. It goes with its news item or banner.
 */
export const contentImages = pgTable(
  'content_images',
  {
    ...storedImageColumns(),
    newsId: integer('news_id').references(() => news.id, { onDelete: 'cascade' }),
    bannerId: integer('banner_id').references(() => banners.id, { onDelete: 'cascade' }),
    // The order of a news item's images.
    position: integer('position').notNull().default(0),
    createdAt: createdAt(),
  },
  (table) => [
    check('content_images_one_owner', sql`(${table.newsId} is null) <> (${table.bannerId} is null)`),
    index('content_images_news_id_idx').on(table.newsId, table.position),
    index('content_images_banner_id_idx').on(table.bannerId),
  ],
);

/**
 * One bulk send (一括送信) to men (type 1) or women (type 2). The text and images live in the history
 * message of the sendmen/sendwomen conversation; each recipient's copy is in broadcast_recipients.
 */
export const broadcasts = pgTable(
  'broadcasts',
  {
    id: serial('id').primaryKey(),
    type: integer('type').notNull(),
    senderId: integer('sender_id').references(() => users.id, { onDelete: 'set null' }),
    historyMessageId: bigint('history_message_id', { mode: 'number' })
      .notNull()
      .references(() => messages.id, { onDelete: 'cascade' }),
    /** The scheduled send it came from; unique, so a scheduled send is stored at most once. */
    scheduledId: integer('scheduled_id')
      .unique('broadcasts_scheduled_id_unique')
      .references(() => scheduledBroadcasts.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
  },
  (table) => [
    check('broadcasts_type', sql`${table.type} in (1, 2)`),
    index('broadcasts_type_id_idx').on(table.type, table.id),
  ],
);

/** An image of a scheduled send, cleaned and stored when it was scheduled (the columns of `media`). */
export interface ScheduledImage {
  id: string;
  path: string;
  mime: string;
  width: number;
  height: number;
  bytes: number;
}

/**
 * A bulk send to go out later (予約送信, product.md §4.6). `scheduled` until an instance claims it
 * (`sending`, with its claim and the time); the statement that stores the send marks it `sent` in the same
 * transaction, only while the claim is still its own, so it goes out once. `cancelled` by staff; `failed`
 * when at its time no recipient was left.
 */
export const scheduledBroadcasts = pgTable(
  'scheduled_broadcasts',
  {
    id: serial('id').primaryKey(),
    type: integer('type').notNull(),
    senderId: integer('sender_id').references(() => users.id, { onDelete: 'set null' }),
    recipients: integer('recipients').array().notNull(),
    body: text('body').notNull(),
    images: jsonb('images').$type<ScheduledImage[]>().notNull().default([]),
    sendAt: timestamp('send_at', { withTimezone: true }).notNull(),
    state: text('state').notNull().default('scheduled'),
    claim: text('claim'),
    claimedAt: timestamp('claimed_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (table) => [
    check('scheduled_broadcasts_type', sql`${table.type} in (1, 2)`),
    check(
      'scheduled_broadcasts_state',
      sql`${table.state} in ('scheduled', 'sending', 'sent', 'cancelled', 'failed')`,
    ),
    index('scheduled_broadcasts_due_idx').on(table.state, table.sendAt),
  ],
);

/**
 * Who got a bulk send, and which message in their desk talk is their copy (for 既読 counts). The member and
 * the talk are those of the copy (`message_id`), so they have no foreign key of their own (decision 027: two
 * checks per copy less): deleting the member deletes their desk talk, the copy and with it this row.
 */
export const broadcastRecipients = pgTable(
  'broadcast_recipients',
  {
    broadcastId: ownedBy('broadcast_id', () => broadcasts.id),
    memberId: integer('member_id').notNull(),
    conversationId: integer('conversation_id').notNull(),
    messageId: bigint('message_id', { mode: 'number' })
      .notNull()
      .references(() => messages.id, { onDelete: 'cascade' }),
  },
  (table) => [primaryKey({ columns: [table.broadcastId, table.memberId] })],
);

/**
 * Bulk-send copies a push went out for (to at least one of the member's devices; the figure 通知). A table of
 * its own rather than a column of broadcast_recipients: marked by the copy's message id, which that table has
 * no index on (decision 027 keeps its inserts lean).
 */
export const broadcastPushes = pgTable('broadcast_pushes', {
  messageId: bigint('message_id', { mode: 'number' })
    .primaryKey()
    .references(() => messages.id, { onDelete: 'cascade' }),
  pushedAt: timestamp('pushed_at', { withTimezone: true }).notNull(),
});

export type NewsRecord = typeof news.$inferSelect;
export type BannerRecord = typeof banners.$inferSelect;
export type ContentImageRecord = typeof contentImages.$inferSelect;
export type BroadcastRecord = typeof broadcasts.$inferSelect;
