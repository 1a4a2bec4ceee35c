import { and, asc, count, desc, eq, sql, type SQL } from 'drizzle-orm';
import type { MemberTableSort } from '@enishi/contract';
import type { Database } from '../db/client.js';
import { conversationReads, conversations, messages, sessions, users } from '../db/schema.js';
import { memberProfiles } from '../db/schema-profile.js';
import type { Reader } from '../rules/conversation-rules.js';
import { unreadCountSql } from './conversation-unread.js';
import { kindCondition, type RecordKind } from './member-admin-repository.js';
import { peopleMatching, readingOrder } from './reading-order.js';

/** The filters and order of a member table (product.md §2.8). */
export interface MemberTableFilter {
  kind: RecordKind;
  /** Part of the name or login ID; empty matches everyone. */
  keyword: string;
  /** 0: every rank. */
  rank: number;
  /** -1: every entry type. */
  entryType: number;
  sort: MemberTableSort;
  desc: boolean;
}

export interface MemberTableQuery extends MemberTableFilter {
  offset: number;
  limit: number;
}

/** A member as the CSV export writes them: the member form's fields (product.md §2.8). */
export interface MemberExportItem {
  loginId: string;
  name: string;
  nameKana: string | null;
  /** The record's rank (men's; women's records keep 0). */
  rank: number;
  introducer: string;
}

export interface MemberTableItem {
  uid: number;
  loginId: string;
  name: string;
  nameKana: string | null;
  role: number;
  rank: number;
  entryType: number | null;
  lastActivity: Date | null;
  unread: number;
  conversationId: number | null;
}

/** The newest session's last request: the last use of the app. */
const lastSeen = sql`(select max(s.last_seen_at) from ${sessions} as s where s.user_id = ${users.id})`;

/**
 * 最終利用 (product.md §2.8): the later of the last use of the app and the last message in their talk with
 * staff (its last_activity_at, once it differs from created_at: schema.ts). Null (未ログイン) for who shows no
 * sign of ever having logged in (no session, no message of their own, no read mark), whatever staff wrote to
 * them; the cheap tests come first, so a member without messages costs one look at the sessions.
 */
const lastActivity = sql<Date | null>`greatest(${lastSeen}, case
  when ${conversations.lastActivityAt} <> ${conversations.createdAt} and (
    exists (select 1 from ${sessions} as s where s.user_id = ${users.id})
    or exists (select 1 from ${messages} as own where own.sender_id = ${users.id})
    or exists (select 1 from ${conversationReads} as r where r.user_id = ${users.id} and r.last_read_message_id > 0)
  ) then ${conversations.lastActivityAt} end)`.mapWith((value: unknown) =>
  value === null ? null : new Date(value as string),
);

/**
 * The member tables of the back office: users of one kind with their desk talk (last activity, the viewer's
 * unread count) and profile (entry type), sorted by any column, one page at a time. SQL only.
 */
export class MemberTableRepository {
  constructor(private readonly db: Database) {}

  /** The filters and order of a table: the page and the CSV export share them. */
  private filterAndOrder(query: MemberTableFilter, viewer: Reader) {
    const conditions: (SQL | undefined)[] = [kindCondition(query.kind)];
    if (query.keyword) conditions.push(peopleMatching(query.keyword));
    // A man's rank is on his record; a woman's (D to VVV) in her profile.
    const rank =
      query.kind === 'women'
        ? sql<number>`coalesce(${memberProfiles.womenRank}, 0)`
        : sql<number>`${users.rank}`;
    if (query.rank > 0) conditions.push(sql`${rank} = ${query.rank}`);
    if (query.entryType >= 0) conditions.push(eq(memberProfiles.entryType, query.entryType));
    const where = and(...conditions);
    const unread = unreadCountSql(viewer);
    const column: Record<Exclude<MemberTableSort, 'name'>, SQL> = {
      id: sql`${users.loginId}`,
      rank,
      entry_type: sql`${memberProfiles.entryType}`,
      activity: lastActivity,
      unread,
    };
    const order = query.desc ? desc : asc;
    // By name is by reading (あいうえお), then name; another column's ties in the same order.
    const byReading = readingOrder(query.desc ? 'desc' : 'asc');
    const orderBy =
      query.sort === 'name' ? byReading : [sql`${order(column[query.sort])} nulls last`, ...byReading];
    return { where, orderBy, rank, unread };
  }

  /**
   * Every member the filters match, in the table's order, with the member form's fields (product.md §2.8:
   * the CSV export). No password: the column is never selected.
   */
  async exportRows(query: MemberTableFilter, viewer: Reader): Promise<MemberExportItem[]> {
    const { where, orderBy } = this.filterAndOrder(query, viewer);
    return this.db
      .select({
        loginId: users.loginId,
        name: users.name,
        nameKana: users.nameKana,
        rank: users.rank,
        introducer: users.introducer,
      })
      .from(users)
      .leftJoin(conversations, eq(conversations.memberId, users.id))
      .leftJoin(memberProfiles, eq(memberProfiles.userId, users.id))
      .where(where)
      .orderBy(...orderBy);
  }

  async page(query: MemberTableQuery, viewer: Reader): Promise<{ rows: MemberTableItem[]; total: number }> {
    const { where, orderBy, rank, unread } = this.filterAndOrder(query, viewer);
    const [rows, total] = await Promise.all([
      this.db
        .select({
          uid: users.id,
          loginId: users.loginId,
          name: users.name,
          nameKana: users.nameKana,
          role: users.role,
          rank: rank.mapWith(Number),
          entryType: memberProfiles.entryType,
          lastActivity,
          unread,
          conversationId: conversations.id,
        })
        .from(users)
        .leftJoin(conversations, eq(conversations.memberId, users.id))
        .leftJoin(memberProfiles, eq(memberProfiles.userId, users.id))
        .where(where)
        // Nulls (never active, no profile, no reading) last either way.
        .orderBy(...orderBy)
        .offset(query.offset)
        .limit(query.limit),
      this.db
        .select({ count: count() })
        .from(users)
        .leftJoin(memberProfiles, eq(memberProfiles.userId, users.id))
        .where(where),
    ]);
    return { rows, total: total[0]?.count ?? 0 };
  }
}
