import { asc, desc, eq, sql, type SQL } from 'drizzle-orm';
import type { Database } from '../db/client.js';
import { conversations, messages, users, type ConversationKind } from '../db/schema.js';
import {
  broadcastPushes,
  broadcastRecipients,
  broadcasts,
  scheduledBroadcasts,
} from '../db/schema-content.js';
import { readingOrder } from './reading-order.js';

/** A member picked for a bulk send, with their desk conversation. */
export interface RecipientRecord {
  uid: number;
  role: number;
  deskId: number | null;
}

export interface BroadcastListItem {
  id: number;
  type: number;
  body: string;
  images: string[];
  deleted: boolean;
  senderName: string | null;
  createdAt: Date;
  count: number;
  read: number;
  delivered: number;
  pushed: number;
}

/* An array goes in as one text parameter in PostgreSQL's array syntax, which both engines bind the same way. */
const intArray = (ids: number[]): SQL => sql`${`{${ids.join(',')}}`}::int[]`;

export class BroadcastRepository {
  constructor(private readonly db: Database) {}

  /** The users behind `uids` that exist, with their role and desk conversation. */
  async findRecipients(uids: number[]): Promise<RecipientRecord[]> {
    if (uids.length === 0) return [];
    return this.db
      .select({ uid: users.id, role: users.role, deskId: conversations.id })
      .from(users)
      .leftJoin(
        conversations,
        sql`${conversations.memberId} = ${users.id} and ${conversations.kind} = 'desk'`,
      )
      .where(sql`${users.id} = any(${intArray(uids)})`);
  }

  /** Every member with `role` in あいうえお order of their reading, as every list of people, for the recipient picker. */
  async membersWithRole(role: number): Promise<{ uid: number; name: string; rank: number }[]> {
    return this.db
      .select({ uid: users.id, name: users.name, rank: users.rank })
      .from(users)
      .where(eq(users.role, role))
      .orderBy(...readingOrder());
  }

  async sender(uid: number): Promise<{ name: string; role: number; image: string | null } | null> {
    const rows = await this.db
      .select({ name: users.name, role: users.role, image: users.image })
      .from(users)
      .where(eq(users.id, uid))
      .limit(1);
    return rows[0] ?? null;
  }

  /** The oldest conversation of a bulk-send history kind, if there is one. */
  async findHistory(kind: ConversationKind): Promise<number | null> {
    const rows = await this.db
      .select({ id: conversations.id })
      .from(conversations)
      .where(eq(conversations.kind, kind))
      .orderBy(asc(conversations.id))
      .limit(1);
    return rows[0]?.id ?? null;
  }

  /**
   * A page of a group's bulk sends, newest first, with its figures (product.md §4.6): recipients (those
   * chosen for a scheduled send, else those with a copy), delivered (copies still stored), read (members who
   * read their talk up to their copy) and pushed (copies a push went out for).
   */
  async list(type: number, offset: number, limit: number): Promise<BroadcastListItem[]> {
    const rows = await this.db
      .select({
        id: broadcasts.id,
        type: broadcasts.type,
        body: messages.body,
        images: messages.images,
        deletedAt: messages.deletedAt,
        senderName: users.name,
        createdAt: broadcasts.createdAt,
        count: sql<number>`coalesce(
          (select cardinality(s.recipients) from ${scheduledBroadcasts} as s where s.id = ${broadcasts.scheduledId}),
          (select count(*)::int from ${broadcastRecipients} as r where r.broadcast_id = ${broadcasts.id})
        )`.mapWith(Number),
        delivered: sql<number>`(
          select count(*)::int from ${broadcastRecipients} as r where r.broadcast_id = ${broadcasts.id}
        )`.mapWith(Number),
        pushed: sql<number>`(
          select count(*)::int from ${broadcastRecipients} as r
          join ${broadcastPushes} as p on p.message_id = r.message_id
          where r.broadcast_id = ${broadcasts.id}
        )`.mapWith(Number),
        read: sql<number>`(
          select count(*)::int from ${broadcastRecipients} as r
          join conversation_reads as cr on cr.conversation_id = r.conversation_id and cr.user_id = r.member_id
          where r.broadcast_id = ${broadcasts.id} and cr.last_read_message_id >= r.message_id
        )`.mapWith(Number),
      })
      .from(broadcasts)
      .innerJoin(messages, eq(messages.id, broadcasts.historyMessageId))
      .leftJoin(users, eq(users.id, broadcasts.senderId))
      .where(eq(broadcasts.type, type))
      .orderBy(desc(broadcasts.id))
      .offset(offset)
      .limit(limit);
    return rows.map(({ deletedAt, ...row }) => ({ ...row, deleted: deletedAt !== null }));
  }
}
