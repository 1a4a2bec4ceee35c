import { and, desc, eq, ilike, isNull, or, sql, type SQL } from 'drizzle-orm';
import { alias, type PgSelect } from 'drizzle-orm/pg-core';
import type { Database } from '../db/client.js';
import {
  conversationReads,
  conversations,
  messages,
  users,
  type ConversationKind,
  type ConversationRecord,
} from '../db/schema.js';
import {
  countsAsUnreadSql,
  isInTalkSql,
  seesTalkSql,
  UNREAD_COUNT_CAP,
  type Reader,
} from '../rules/conversation-rules.js';

export type { Reader };

/** What access rules and presenters need to know about a conversation. */
export interface ConversationAccess {
  id: number;
  kind: ConversationKind;
  /** The member of a desk conversation, and their role (101 or 201). */
  memberId: number | null;
  memberRole: number | null;
  manId: number | null;
  womanId: number | null;
}

/** A row of a room list: the conversation, its member (desk), its last message and the viewer's unread count. */
export interface ConversationListItem extends ConversationAccess {
  name: string;
  memberName: string | null;
  memberRank: number | null;
  memberImage: string | null;
  lastBody: string | null;
  lastImageCount: number | null;
  lastAt: Date | null;
  unread: number;
}

/** Which conversations a list asks for. Members are always narrowed to their own. */
export interface ConversationFilter {
  kind: ConversationKind;
  /** desk only: the members' role (101 men, 201 women). */
  memberRole?: number;
  /** Only conversations this member belongs to. */
  memberUid?: number;
  /** Substring of the member's or room's name (and, with `searchLoginId`, the member's login ID). */
  search?: string;
  searchLoginId?: boolean;
}

/** An unread message of a reader, with what sorts it into a counter or map. */
export interface UnreadRow {
  conversationId: number;
  kind: ConversationKind;
  memberRole: number | null;
  messageId: number;
}

const member = alias(users, 'member');
// The sender of a message, whose role the unread rule asks (joined, not looked up row by row).
const sender = alias(users, 'sender');

/** `%text%` for ILIKE, with the pattern characters of the text itself taken literally. */
function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

export class ConversationRepository {
  constructor(private readonly db: Database) {}

  private accessColumns() {
    return {
      id: conversations.id,
      kind: conversations.kind,
      memberId: conversations.memberId,
      memberRole: member.role,
      manId: conversations.manId,
      womanId: conversations.womanId,
    };
  }

  async findAccess(id: number): Promise<ConversationAccess | null> {
    const rows = await this.db
      .select(this.accessColumns())
      .from(conversations)
      .leftJoin(member, eq(member.id, conversations.memberId))
      .where(eq(conversations.id, id))
      .limit(1);
    return rows[0] ?? null;
  }

  /**
   * Creates a group talk unless the same man and woman already have one (null then). The advisory lock on
   * the pair makes two registrations at once create one talk, not two.
   */
  async createGroupTalk(talk: {
    manId: number;
    womanId: number;
    name: string;
    registeredBy: number | null;
    now: Date;
  }): Promise<ConversationRecord | null> {
    return this.db.transaction(async (tx) => {
      await tx.execute(
        sql`select pg_advisory_xact_lock(hashtext(${`enishi.group.${talk.manId}.${talk.womanId}`}))`,
      );
      const existing = await tx
        .select({ id: conversations.id })
        .from(conversations)
        .where(
          and(
            eq(conversations.kind, 'st'),
            eq(conversations.manId, talk.manId),
            eq(conversations.womanId, talk.womanId),
          ),
        )
        .limit(1);
      if (existing.length > 0) return null;
      const rows = await tx
        .insert(conversations)
        .values({
          kind: 'st',
          manId: talk.manId,
          womanId: talk.womanId,
          name: talk.name,
          registeredBy: talk.registeredBy,
          lastActivityAt: talk.now,
          createdAt: talk.now,
        })
        .returning();
      return rows[0]!;
    });
  }

  /**
   * Creates the room of `kind` named `name` unless one of that kind exists. The advisory lock makes two
   * instances starting together create one room, not two.
   */
  async ensureOne(kind: ConversationKind, name: string, now: Date): Promise<boolean> {
    return this.db.transaction(async (tx) => {
      await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`enishi.ensure.${kind}`}))`);
      const existing = await tx
        .select({ id: conversations.id })
        .from(conversations)
        .where(eq(conversations.kind, kind))
        .limit(1);
      if (existing.length > 0) return false;
      await tx.insert(conversations).values({ kind, name, lastActivityAt: now, createdAt: now });
      return true;
    });
  }

  /**
   * One page of a room list, newest activity first, with the last message and the viewer's unread count.
   * (Callers ask for one row more than a page, to tell whether it is the last.)
   */
  async list(
    filter: ConversationFilter,
    viewer: Reader,
    offset: number,
    limit: number,
  ): Promise<ConversationListItem[]> {
    const conditions: (SQL | undefined)[] = [eq(conversations.kind, filter.kind)];
    if (filter.memberRole !== undefined) conditions.push(eq(member.role, filter.memberRole));
    if (filter.memberUid !== undefined) conditions.push(isInTalkSql(filter.memberUid));
    if (filter.search) {
      const pattern = containsPattern(filter.search);
      conditions.push(
        filter.kind === 'desk'
          ? or(ilike(member.name, pattern), filter.searchLoginId ? ilike(member.loginId, pattern) : undefined)
          : ilike(conversations.name, pattern),
      );
    }

    return this.selectListItems(viewer)
      .where(and(...conditions))
      .orderBy(desc(conversations.lastActivityAt), desc(conversations.id))
      .offset(offset)
      .limit(limit);
  }

  /** The list row of one conversation. */
  async findListItem(id: number, viewer: Reader): Promise<ConversationListItem | null> {
    const rows = await this.selectListItems(viewer).where(eq(conversations.id, id)).limit(1);
    return rows[0] ?? null;
  }

  /** Conversations with their member (desk), last message and the viewer's unread count. */
  private selectListItems(viewer: Reader) {
    const last = this.db
      .select({
        body: messages.body,
        imageCount: sql<number>`cardinality(${messages.images})`.as('image_count'),
        createdAt: messages.createdAt,
      })
      .from(messages)
      .where(and(eq(messages.conversationId, conversations.id), isNull(messages.deletedAt)))
      .orderBy(desc(messages.id))
      .limit(1)
      .as('last');
    return this.db
      .select({
        ...this.accessColumns(),
        name: conversations.name,
        memberName: member.name,
        memberRank: member.rank,
        memberImage: member.image,
        lastBody: last.body,
        lastImageCount: last.imageCount,
        lastAt: last.createdAt,
        unread: unreadCountSql(viewer),
      })
      .from(conversations)
      .leftJoin(member, eq(member.id, conversations.memberId))
      .leftJoinLateral(last, sql`true`)
      .$dynamic();
  }

  /**
   * The reader's unread messages (by others, not deleted, newer than their read mark), newest first, at
   * most `limit`. Members: their own talks. Staff: desk talks, group talks and staff rooms.
   */
  async unread(reader: Reader, limit: number): Promise<UnreadRow[]> {
    const query = this.db
      .select({
        conversationId: conversations.id,
        kind: conversations.kind,
        memberRole: member.role,
        messageId: messages.id,
      })
      .from(messages)
      .$dynamic();
    return this.unreadOnly(query, reader).orderBy(desc(messages.id)).limit(limit);
  }

  /** A select from messages joined to each one's talk, member, sender and read mark, kept to the unread. */
  private unreadOnly<Query extends PgSelect>(query: Query, reader: Reader) {
    return query
      .innerJoin(conversations, eq(conversations.id, messages.conversationId))
      .leftJoin(member, eq(member.id, conversations.memberId))
      .leftJoin(sender, eq(sender.id, messages.senderId))
      .leftJoin(conversationReads, this.readMarkOf(reader))
      .where(this.unreadFor(reader));
  }

  /** The reader's read mark in the conversation of each message row. */
  private readMarkOf(reader: Reader): SQL {
    return and(
      eq(conversationReads.conversationId, conversations.id),
      eq(conversationReads.userId, reader.uid),
    )!;
  }

  /** Message rows that are unread for the reader (joined with conversations and `readMarkOf`). */
  private unreadFor(reader: Reader): SQL {
    return and(
      seesTalkSql(reader),
      isNull(messages.deletedAt),
      countsAsUnreadSql(reader, {
        kind: conversations.kind,
        senderId: messages.senderId,
        senderRole: sender.role,
      }),
      sql`${messages.id} > coalesce(${conversationReads.lastReadMessageId}, 0)`,
    )!;
  }

  /**
   * Unread counts by kind (and member role for desk talks), with the same scope as `unread`. The scan stops
   * after UNREAD_COUNT_CAP messages: a staff member who never opens the men's talks would otherwise make
   * every badge refresh count the whole history; badges show anything over 99 as "99+".
   */
  async unreadCounts(
    reader: Reader,
  ): Promise<{ kind: ConversationKind; memberRole: number | null; count: number }[]> {
    const scan = this.db
      .select({
        kind: sql<ConversationKind>`${conversations.kind}`.as('unread_kind'),
        memberRole: sql<number | null>`${member.role}`.as('unread_member_role'),
      })
      .from(messages)
      .$dynamic();
    const unread = this.unreadOnly(scan, reader).limit(UNREAD_COUNT_CAP).as('unread');
    return this.db
      .select({
        kind: unread.kind,
        memberRole: unread.memberRole,
        count: sql<number>`count(*)::int`.mapWith(Number),
      })
      .from(unread)
      .groupBy(unread.kind, unread.memberRole);
  }

  /**
   * Moves the user's read mark to the conversation's newest message (never backwards). Returns the mark
   * and whether it moved.
   */
  async markRead(conversationId: number, userId: number): Promise<{ lastReadId: number; moved: boolean }> {
    const newest = await this.db
      .select({ id: sql<number | null>`max(${messages.id})`.mapWith(Number) })
      .from(messages)
      .where(eq(messages.conversationId, conversationId));
    const newestId = newest[0]?.id ?? 0;
    if (!newestId) return { lastReadId: 0, moved: false };
    const rows = await this.db
      .insert(conversationReads)
      .values({ conversationId, userId, lastReadMessageId: newestId })
      .onConflictDoUpdate({
        target: [conversationReads.conversationId, conversationReads.userId],
        set: { lastReadMessageId: newestId },
        setWhere: sql`${conversationReads.lastReadMessageId} < ${newestId}`,
      })
      .returning({ lastReadId: conversationReads.lastReadMessageId });
    return rows[0] ? { lastReadId: rows[0].lastReadId, moved: true } : { lastReadId: newestId, moved: false };
  }

  /** How far the member and (any of) the staff have read a desk conversation, for 既読. */
  async readMarks(conversationId: number): Promise<{ userId: number; role: number; lastReadId: number }[]> {
    return this.db
      .select({
        userId: conversationReads.userId,
        role: users.role,
        lastReadId: conversationReads.lastReadMessageId,
      })
      .from(conversationReads)
      .innerJoin(users, eq(users.id, conversationReads.userId))
      .where(eq(conversationReads.conversationId, conversationId));
  }
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
      and unread_m.deleted_at is null
      and ${unread}
      and unread_m.id > coalesce((
        select r.last_read_message_id from ${conversationReads} as r
        where r.conversation_id = ${conversations.id} and r.user_id = ${viewer.uid}
      ), 0)
  )`.mapWith(Number);
}
