import { and, desc, eq, isNull, sql, type SQL } from 'drizzle-orm';
import { alias, type PgSelect } from 'drizzle-orm/pg-core';
import type { Database } from '../db/client.js';
import { conversationReads, conversations, messages, users, type ConversationKind } from '../db/schema.js';
import {
  countsAsUnreadSql,
  seesTalkSql,
  UNREAD_COUNT_CAP,
  type Reader,
} from '../rules/conversation-rules.js';

/*
 * The SQL of unread messages (product.md §3): which messages are unread for a reader, their counts for the
 * badges, and the count a room list row shows. The rules are rules/conversation-rules.ts's; these are the
 * queries that apply them (ConversationRepository and the member tables ask them).
 */

/** An unread message of a reader, with what sorts it into a counter or map. */
export interface UnreadRow {
  conversationId: number;
  kind: ConversationKind;
  memberRole: number | null;
  messageId: number;
}

/** The member of a desk talk, joined to the talk. */
export const member = alias(users, 'member');
// The sender of a message, whose role the unread rule asks (joined, not looked up row by row).
const sender = alias(users, 'sender');

/**
 * The reader's unread messages (by others, not deleted, newer than their read mark), newest first, at
 * most `limit`. Members: their own talks. Staff: desk talks, group talks and staff rooms.
 */
export async function unreadMessages(db: Database, reader: Reader, limit: number): Promise<UnreadRow[]> {
  const query = db
    .select({
      conversationId: conversations.id,
      kind: conversations.kind,
      memberRole: member.role,
      messageId: messages.id,
    })
    .from(messages)
    .$dynamic();
  return unreadOnly(query, reader).orderBy(desc(messages.id)).limit(limit);
}

/** A select from messages joined to each one's talk, member, sender and read mark, kept to the unread. */
function unreadOnly<Query extends PgSelect>(query: Query, reader: Reader) {
  return query
    .innerJoin(conversations, eq(conversations.id, messages.conversationId))
    .leftJoin(member, eq(member.id, conversations.memberId))
    .leftJoin(sender, eq(sender.id, messages.senderId))
    .leftJoin(conversationReads, readMarkOf(reader))
    .where(unreadFor(reader));
}

/** The reader's read mark in the conversation of each message row. */
function readMarkOf(reader: Reader): SQL {
  return and(
    eq(conversationReads.conversationId, conversations.id),
    eq(conversationReads.userId, reader.uid),
  )!;
}

/** Message rows that are unread for the reader (joined with conversations and `readMarkOf`). */
function unreadFor(reader: Reader): SQL {
  return and(
    seesTalkSql(reader),
    isNull(messages.deletedAt),
    // A message taken back (送信取消) is unread no more.
    isNull(messages.unsentAt),
    countsAsUnreadSql(reader, {
      kind: conversations.kind,
      senderId: messages.senderId,
      senderRole: sender.role,
    }),
    sql`${messages.id} > coalesce(${conversationReads.lastReadMessageId}, 0)`,
  )!;
}

/**
 * Unread counts by kind (and member role for desk talks), with the same scope as `unreadMessages`. The scan
 * stops after UNREAD_COUNT_CAP messages: a staff member who never opens the men's talks would otherwise make
 * every badge refresh count the whole history; badges show anything over 99 as "99+".
 */
export async function unreadCountsOf(
  db: Database,
  reader: Reader,
): Promise<{ kind: ConversationKind; memberRole: number | null; count: number }[]> {
  const scan = db
    .select({
      kind: sql<ConversationKind>`${conversations.kind}`.as('unread_kind'),
      memberRole: sql<number | null>`${member.role}`.as('unread_member_role'),
    })
    .from(messages)
    .$dynamic();
  const unread = unreadOnly(scan, reader).limit(UNREAD_COUNT_CAP).as('unread');
  return db
    .select({
      kind: unread.kind,
      memberRole: unread.memberRole,
      count: sql<number>`count(*)::int`.mapWith(Number),
    })
    .from(unread)
    .groupBy(unread.kind, unread.memberRole);
}

/**
 * Unread messages (the rule's) newer than what the viewer has read, in the current `conversations` row of the
 * query (the room lists, the member tables of the back office).
 */
export function unreadCountSql(viewer: Reader) {
  const unread = countsAsUnreadSql(viewer, {
    kind: conversations.kind,
    senderId: sql.raw('unread_m.sender_id'),
    senderRole: sql.raw('unread_s.role'),
  });
  return sql<number>`(
    select count(*)::int from ${messages} as unread_m
    left join ${users} as unread_s on unread_s.id = unread_m.sender_id
    where unread_m.conversation_id = ${conversations.id}
      and unread_m.deleted_at is null and unread_m.unsent_at is null
      and ${unread}
      and unread_m.id > coalesce((
        select r.last_read_message_id from ${conversationReads} as r
        where r.conversation_id = ${conversations.id} and r.user_id = ${viewer.uid}
      ), 0)
  )`.mapWith(Number);
}
