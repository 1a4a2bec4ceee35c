import { asc, desc, eq, sql, type SQL } from 'drizzle-orm';
import type { Database } from '../db/client.js';
import { rowsOf } from '../db/raw.js';
import { conversations, media, messages, users, type ConversationKind } from '../db/schema.js';
import { broadcastRecipients, broadcasts } from '../db/schema-content.js';
import { MESSAGE_ORDER_LOCK } from './message-batch-repository.js';
import type { NewImage } from './message-repository.js';

/** A member picked for a bulk send, with their desk conversation. */
export interface RecipientRecord {
  uid: number;
  role: number;
  deskId: number | null;
}

export interface NewBroadcast {
  type: number;
  senderId: number;
  body: string;
  now: Date;
  /** The sendmen/sendwomen conversation that keeps the staff's record. */
  historyConversationId: number;
  historyImages: NewImage[];
  /** One entry per recipient, each with its own copies of the images. */
  recipients: { memberId: number; deskId: number; images: NewImage[] }[];
}

export interface StoredCopy {
  messageId: number;
  memberId: number;
  deskId: number;
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
}

/** Rows per INSERT: a few thousand bound parameters, well under PostgreSQL's 65,535. */
const CHUNK = 1000;

function chunks<T>(items: T[]): T[][] {
  const result: T[][] = [];
  for (let i = 0; i < items.length; i += CHUNK) result.push(items.slice(i, i + CHUNK));
  return result;
}

/*
 * Arrays go in as one text parameter in PostgreSQL's array syntax, which both engines bind the same way.
 * Numbers and base64url ids need no escaping beyond the quotes.
 */
const intArray = (ids: number[]): SQL => sql`${`{${ids.join(',')}}`}::int[]`;
const textArray = (values: string[]): SQL =>
  sql`${`{${values.map((value) => `"${value}"`).join(',')}}`}::text[]`;

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

  /** Every member with `role`, in the order they joined, for the recipient picker. */
  async membersWithRole(role: number): Promise<{ uid: number; name: string; rank: number }[]> {
    return this.db
      .select({ uid: users.id, name: users.name, rank: users.rank })
      .from(users)
      .where(eq(users.role, role))
      .orderBy(asc(users.id));
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
   * Stores a bulk send in one transaction: the history message, one message in each recipient's desk talk
   * (batched inserts), their images, and the record with its recipients. It takes the message-order lock
   * first, like every message insert (see MESSAGE_ORDER_LOCK), so all these ids commit together and in
   * order with everyone else's messages.
   */
  async insert(input: NewBroadcast): Promise<{ historyMessageId: number; copies: StoredCopy[] }> {
    return this.db.transaction(async (tx) => {
      await tx.execute(sql`select pg_advisory_xact_lock(${MESSAGE_ORDER_LOCK})`);

      const [history] = await tx
        .insert(messages)
        .values({
          conversationId: input.historyConversationId,
          senderId: input.senderId,
          body: input.body,
          images: input.historyImages.map((image) => image.id),
          createdAt: input.now,
        })
        .returning({ id: messages.id });
      const historyMessageId = history!.id;

      // One INSERT ... SELECT over arrays: a few parameters instead of five per row, which is what made
      // row-by-row VALUES slow for thousands of recipients. Image ids (base64url) are joined with commas.
      const inserted = rowsOf<{ id: number | string; conversation_id: number }>(
        await tx.execute(sql`
          insert into ${messages} (conversation_id, sender_id, body, images, created_at)
          select r.desk, ${input.senderId}, ${input.body}, string_to_array(r.images, ','),
            ${input.now.toISOString()}::timestamptz
          from unnest(
            ${intArray(input.recipients.map((recipient) => recipient.deskId))},
            ${textArray(input.recipients.map((recipient) => recipient.images.map((image) => image.id).join(',')))}
          ) as r(desk, images)
          returning id, conversation_id`),
      );
      // Each recipient has their own desk talk, so the conversation id tells which copy is whose.
      const byDesk = new Map(inserted.map((row) => [Number(row.conversation_id), Number(row.id)]));
      const copies: StoredCopy[] = input.recipients.map((recipient) => ({
        messageId: byDesk.get(recipient.deskId)!,
        memberId: recipient.memberId,
        deskId: recipient.deskId,
      }));

      const mediaRows = [
        ...input.historyImages.map((image) => ({
          ...image,
          conversationId: input.historyConversationId,
          messageId: historyMessageId,
          ownerId: input.senderId,
          createdAt: input.now,
        })),
        ...input.recipients.flatMap((recipient, index) =>
          recipient.images.map((image) => ({
            ...image,
            conversationId: recipient.deskId,
            messageId: copies[index]!.messageId,
            ownerId: input.senderId,
            createdAt: input.now,
          })),
        ),
      ];
      for (const part of chunks(mediaRows)) await tx.insert(media).values(part);

      const touched = [input.historyConversationId, ...input.recipients.map((recipient) => recipient.deskId)];
      await tx
        .update(conversations)
        .set({ lastActivityAt: input.now })
        .where(sql`${conversations.id} = any(${intArray(touched)})`);

      const [record] = await tx
        .insert(broadcasts)
        .values({ type: input.type, senderId: input.senderId, historyMessageId, createdAt: input.now })
        .returning({ id: broadcasts.id });
      await tx.execute(sql`
        insert into ${broadcastRecipients} (broadcast_id, member_id, conversation_id, message_id)
        select ${record!.id}, r.member, r.desk, r.message
        from unnest(
          ${intArray(copies.map((copy) => copy.memberId))},
          ${intArray(copies.map((copy) => copy.deskId))},
          ${`{${copies.map((copy) => copy.messageId).join(',')}}`}::bigint[]
        ) as r(member, desk, message)`);
      return { historyMessageId, copies };
    });
  }

  /**
   * A page of a group's bulk sends, newest first, each with its recipients (members still there) and how
   * many of them have read their talk up to their copy.
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
        count: sql<number>`(
          select count(*)::int from ${broadcastRecipients} as r where r.broadcast_id = ${broadcasts.id}
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
