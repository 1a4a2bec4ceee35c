import { and, asc, desc, eq, sql } from 'drizzle-orm';
import type { Scope } from '@enishi/contract';
import type { Database } from '../db/client.js';
import { rowsOf } from '../db/raw.js';
import {
  cannedReplies,
  conversations,
  memberNotes,
  messages,
  users,
  type ConversationKind,
} from '../db/schema.js';
import { talkColumnsOf } from '../rules/conversation-rules.js';
import { scopeSql } from '../rules/scope-sql.js';

/** One search hit, before it is presented for its reader. */
export interface SearchRow {
  id: number;
  conversationId: number;
  senderId: number | null;
  senderName: string | null;
  senderRole: number | null;
  body: string;
  /** A stamp (product.md §12.8): its body is empty; it is shown as [スタンプ]. */
  isStamp: boolean;
  createdAt: Date;
  kind: ConversationKind;
  roomName: string;
  memberName: string | null;
  memberRole: number | null;
}

export interface SearchQuery {
  /** The talks the reader sees (talk.read's scope). */
  readable: Scope;
  /** The text to find, as typed (escaped here for LIKE). */
  text: string;
  /** Stamps match too (the text is part of how a stamp is shown, [スタンプ]). */
  stamps?: boolean;
  conversationId?: number | undefined;
  /** Only messages with a smaller id (paging). */
  before?: number | undefined;
  /** Only messages with a larger id (the window of a short query). */
  after?: number | undefined;
  limit: number;
}

/** `%`, `_` and `\` match themselves. */
export const likePattern = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/**
 * SQL of the staff desk: message search (the pg_trgm index on messages.body), saved replies and notes. The
 * search applies the visibility rule of rules/conversation-rules.ts in the statement itself.
 */
export class DeskRepository {
  constructor(private readonly db: Database) {}

  async search(query: SearchQuery): Promise<SearchRow[]> {
    type Raw = {
      id: string | number;
      conversation_id: number;
      sender_id: number | null;
      sender_name: string | null;
      sender_role: number | null;
      body: string;
      is_stamp: boolean;
      created_at: string | Date;
      kind: ConversationKind;
      room_name: string;
      member_name: string | null;
      member_role: number | null;
    };
    const result = await this.db.execute(sql`
      select m.id, m.conversation_id, m.sender_id, s.name as sender_name, s.role as sender_role, m.body,
        m.stamp_id is not null as is_stamp, m.created_at, c.kind, c.name as room_name, mu.name as member_name, mu.role as member_role
      from ${messages} m
      join ${conversations} c on c.id = m.conversation_id
      left join ${users} s on s.id = m.sender_id
      left join ${users} mu on mu.id = c.member_id
      where m.deleted_at is null and m.unsent_at is null
        and (m.body ilike ${likePattern(query.text)} ${query.stamps ? sql`or m.stamp_id is not null` : sql``})
        and ${scopeSql(query.readable, talkColumnsOf('c'))}
        ${query.conversationId === undefined ? sql`` : sql`and m.conversation_id = ${query.conversationId}`}
        ${query.before === undefined ? sql`` : sql`and m.id < ${query.before}`}
        ${query.after === undefined ? sql`` : sql`and m.id > ${query.after}`}
      order by m.id desc
      limit ${query.limit}`);
    return rowsOf<Raw>(result).map((row) => ({
      id: Number(row.id),
      conversationId: row.conversation_id,
      senderId: row.sender_id,
      senderName: row.sender_name,
      senderRole: row.sender_role,
      body: row.body,
      isStamp: row.is_stamp,
      createdAt: new Date(row.created_at),
      kind: row.kind,
      roomName: row.room_name,
      memberName: row.member_name,
      memberRole: row.member_role,
    }));
  }

  /** The newest message id (the top of a short query's window), 0 when there is none. */
  async newestMessageId(conversationId?: number): Promise<number> {
    const rows = await this.db
      .select({ id: sql<string | number | null>`max(${messages.id})` })
      .from(messages)
      .where(conversationId === undefined ? undefined : eq(messages.conversationId, conversationId));
    return Number(rows[0]?.id ?? 0);
  }

  listCanned() {
    return this.db
      .select()
      .from(cannedReplies)
      .orderBy(asc(sql`lower(${cannedReplies.name})`));
  }

  async countCanned(): Promise<number> {
    const rows = await this.db.select({ n: sql<number>`count(*)::int` }).from(cannedReplies);
    return rows[0]?.n ?? 0;
  }

  /** Null when the name is taken by another saved reply (the unique index decides, race-free). */
  async saveCanned(input: {
    id?: number | undefined;
    name: string;
    body: string;
    by: { uid: number; name: string };
    now: Date;
  }): Promise<'saved' | 'missing' | 'taken'> {
    const fields = {
      name: input.name,
      body: input.body,
      updatedBy: input.by.uid,
      updatedByName: input.by.name,
      updatedAt: input.now,
    };
    const rows =
      input.id === undefined
        ? await this.db
            .insert(cannedReplies)
            .values({ ...fields, createdAt: input.now })
            .onConflictDoNothing()
            .returning({ id: cannedReplies.id })
        : await this.updateCanned(input.id, fields);
    if (rows === 'missing') return 'missing';
    return rows.length > 0 ? 'saved' : 'taken';
  }

  private async updateCanned(id: number, fields: Partial<typeof cannedReplies.$inferInsert>) {
    const taken = await this.db
      .select({ id: cannedReplies.id })
      .from(cannedReplies)
      .where(
        sql`lower(${cannedReplies.name}) = lower(${fields.name ?? ''}) and ${cannedReplies.id} <> ${id}`,
      );
    if (taken.length > 0) return [];
    const rows = await this.db
      .update(cannedReplies)
      .set(fields)
      .where(eq(cannedReplies.id, id))
      .returning({ id: cannedReplies.id });
    return rows.length > 0 ? rows : ('missing' as const);
  }

  async deleteCanned(id: number): Promise<boolean> {
    const rows = await this.db
      .delete(cannedReplies)
      .where(eq(cannedReplies.id, id))
      .returning({ id: cannedReplies.id });
    return rows.length > 0;
  }

  findMember(uid: number) {
    return this.db.query.users.findFirst({ where: eq(users.id, uid) });
  }

  listNotes(memberId: number) {
    return this.db
      .select()
      .from(memberNotes)
      .where(eq(memberNotes.memberId, memberId))
      .orderBy(desc(memberNotes.id))
      .limit(200);
  }

  async addNote(note: { memberId: number; authorId: number; authorName: string; body: string; now: Date }) {
    await this.db.insert(memberNotes).values({
      memberId: note.memberId,
      authorId: note.authorId,
      authorName: note.authorName,
      body: note.body,
      createdAt: note.now,
    });
  }

  findNote(id: number) {
    return this.db.query.memberNotes.findFirst({ where: eq(memberNotes.id, id) });
  }

  async deleteNote(id: number, memberId: number): Promise<boolean> {
    const rows = await this.db
      .delete(memberNotes)
      .where(and(eq(memberNotes.id, id), eq(memberNotes.memberId, memberId)))
      .returning({ id: memberNotes.id });
    return rows.length > 0;
  }
}
