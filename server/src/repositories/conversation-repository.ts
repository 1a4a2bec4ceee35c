import { and, desc, eq, ilike, inArray, isNull, or, sql, type SQL } from 'drizzle-orm';
import type { Scope } from '@enishi/contract';
import type { Database } from '../db/client.js';
import {
  conversationReads,
  conversations,
  messages,
  users,
  type ConversationKind,
  type ConversationRecord,
} from '../db/schema.js';
import { TALK_COLUMNS, type Reader } from '../rules/conversation-rules.js';
import { scopeSql } from '../rules/scope-sql.js';
import * as desk from './desk-talk-repository.js';
import {
  member,
  unreadCountSql,
  unreadCountsOf,
  unreadMessages,
  type UnreadRow,
} from './conversation-unread.js';

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
export interface ConversationListItem extends ConversationAccess, desk.DeskListColumns {
  name: string;
  memberName: string | null;
  memberRank: number | null;
  memberImage: string | null;
  lastBody: string | null;
  lastImageCount: number | null;
  /** The last message is a stamp (product.md §12.8). */
  lastIsStamp: boolean | null;
  lastAt: Date | null;
  unread: number;
}

/**
 * A room list's order (product.md §12.3): by the latest message, newest first; a talk without one below every
 * talk with one, the newest first (a desk talk is made with its member: the newest member first).
 * last_activity_at is the creation time until the first message and then the time of the latest (schema.ts),
 * so "has a message" is last_activity_at <> created_at, read from the row itself.
 */
const LIST_ORDER = [
  sql`${conversations.lastActivityAt} <> ${conversations.createdAt} desc`,
  desc(conversations.lastActivityAt),
  desc(conversations.id),
];

/** Which conversations a list asks for, within the reader's scope. */
export interface ConversationFilter extends desk.DeskListFilter {
  kind: ConversationKind;
  /** desk only: the members' role (101 men, 201 women). */
  memberRole?: number;
  /** The talks the reader sees (talk.read's scope): staff every one, a member those they have a seat in. */
  readable: Scope;
  /** Substring of the member's or room's name (and, with `searchLoginId`, the member's login ID). */
  search?: string;
  searchLoginId?: boolean;
}

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
    conditions.push(scopeSql(filter.readable, TALK_COLUMNS));
    if (filter.search) {
      const pattern = containsPattern(filter.search);
      conditions.push(
        filter.kind === 'desk'
          ? or(ilike(member.name, pattern), filter.searchLoginId ? ilike(member.loginId, pattern) : undefined)
          : ilike(conversations.name, pattern),
      );
    }

    conditions.push(...desk.deskListConditions(filter, unreadCountSql(viewer)));

    // The page's ids first, on the talk's own columns, so the last message and the unread count are read for
    // those rows alone, not for every talk of the kind.
    const page = await this.db
      .select({ id: conversations.id })
      .from(conversations)
      .leftJoin(member, eq(member.id, conversations.memberId))
      .where(and(...conditions))
      .orderBy(...LIST_ORDER)
      .offset(offset)
      .limit(limit);
    if (page.length === 0) return [];
    const ids = page.map((row) => row.id);
    const rows = await this.selectListItems(viewer).where(inArray(conversations.id, ids));
    const place = new Map(ids.map((id, index) => [id, index]));
    return rows.sort((a, b) => place.get(a.id)! - place.get(b.id)!);
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
        isStamp: sql<boolean>`${messages.stampId} is not null`.as('is_stamp'),
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
        lastIsStamp: last.isStamp,
        lastAt: last.createdAt,
        unread: unreadCountSql(viewer),
        deskStatus: conversations.deskStatus,
        assigneeId: conversations.deskAssigneeId,
        assigneeName: desk.deskAssignee.name,
      })
      .from(conversations)
      .leftJoin(member, eq(member.id, conversations.memberId))
      .leftJoin(desk.deskAssignee, eq(desk.deskAssignee.id, conversations.deskAssigneeId))
      .leftJoinLateral(last, sql`true`)
      .$dynamic();
  }

  /**
   * The reader's unread messages (by others, not deleted, newer than their read mark), newest first, at
   * most `limit`. Members: their own talks. Staff: desk talks, group talks and staff rooms.
   */
  async unread(reader: Reader, limit: number): Promise<UnreadRow[]> {
    return unreadMessages(this.db, reader, limit);
  }

  /** Unread counts by kind (and member role for desk talks): `unreadCountsOf` in conversation-unread.ts. */
  async unreadCounts(
    reader: Reader,
  ): Promise<{ kind: ConversationKind; memberRole: number | null; count: number }[]> {
    return unreadCountsOf(this.db, reader);
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
