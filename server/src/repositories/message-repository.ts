import { and, asc, desc, eq, gt, inArray, isNull, lt, or, sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Database } from '../db/client.js';
import { executePrepared } from '../db/raw.js';
import {
  conversationReads,
  conversations,
  media,
  messages,
  users,
  type ConversationKind,
  type MessageRecord,
} from '../db/schema.js';

/*
 * Message ids must become visible in id order: a client catching up with "everything after id N" would
 * otherwise miss a message whose smaller id committed after a larger one it already saw. Every insert
 * therefore takes this transaction-scoped advisory lock before the id is drawn and holds it until commit,
 * so ids are drawn and committed one writer at a time. Inserts are short (images are processed before),
 * so the lock is held for a millisecond or two.
 */
export const MESSAGE_ORDER_LOCK = 0x656e_6973_6869; // "enishi"

/** A message with everything a reader sees: sender, conversation, and the message it replies to. */
export interface MessageRow {
  id: number;
  conversationId: number;
  senderId: number | null;
  senderName: string | null;
  senderRole: number | null;
  senderImage: string | null;
  body: string;
  images: string[];
  announce: boolean;
  messageType: number;
  clientId: string | null;
  createdAt: Date;
  kind: ConversationKind;
  memberId: number | null;
  memberRole: number | null;
  manId: number | null;
  womanId: number | null;
  reply: {
    id: number;
    body: string;
    images: string[];
    senderId: number | null;
    senderName: string | null;
    senderRole: number | null;
  } | null;
}

export interface NewImage {
  id: string;
  path: string;
  mime: string;
  width: number;
  height: number;
  bytes: number;
}

export interface InsertOutcome {
  message: MessageRecord;
  created: boolean;
}

export interface NewMessage {
  conversationId: number;
  senderId: number;
  body: string;
  images: NewImage[];
  replyToId: number | null;
  announce: boolean;
  messageType: number;
  /** Chosen by the sending client (the server makes one for messages of its own). */
  clientId: string;
  now: Date;
}

/** Which messages a user may see: a member only those of their own talks; staff all. */
export interface Visibility {
  uid: number;
  isStaff: boolean;
}

const sender = alias(users, 'sender');
const member = alias(users, 'member');
const replied = alias(messages, 'replied');
const repliedSender = alias(users, 'replied_sender');

export class MessageRepository {
  constructor(private readonly db: Database) {}

  private select() {
    return (
      this.db
        .select({
          id: messages.id,
          conversationId: messages.conversationId,
          senderId: messages.senderId,
          senderName: sender.name,
          senderRole: sender.role,
          senderImage: sender.image,
          body: messages.body,
          images: messages.images,
          announce: messages.announce,
          messageType: messages.messageType,
          clientId: messages.clientId,
          createdAt: messages.createdAt,
          kind: conversations.kind,
          memberId: conversations.memberId,
          memberRole: member.role,
          manId: conversations.manId,
          womanId: conversations.womanId,
          replyId: replied.id,
          replyBody: replied.body,
          replyImages: replied.images,
          replySenderId: replied.senderId,
          replySenderName: repliedSender.name,
          replySenderRole: repliedSender.role,
        })
        .from(messages)
        .innerJoin(conversations, eq(conversations.id, messages.conversationId))
        .leftJoin(member, eq(member.id, conversations.memberId))
        .leftJoin(sender, eq(sender.id, messages.senderId))
        // A reply to a message deleted since shows no quote.
        .leftJoin(replied, and(eq(replied.id, messages.replyToId), isNull(replied.deletedAt)))
        .leftJoin(repliedSender, eq(repliedSender.id, replied.senderId))
        .$dynamic()
    );
  }

  private static toRow(row: Awaited<ReturnType<MessageRepository['select']>>[number]): MessageRow {
    const { replyId, replyBody, replyImages, replySenderId, replySenderName, replySenderRole, ...rest } = row;
    return {
      ...rest,
      reply:
        replyId === null
          ? null
          : {
              id: replyId,
              body: replyBody ?? '',
              images: replyImages ?? [],
              senderId: replySenderId,
              senderName: replySenderName,
              senderRole: replySenderRole,
            },
    };
  }

  async findRow(id: number): Promise<MessageRow | null> {
    const rows = await this.select()
      .where(and(eq(messages.id, id), isNull(messages.deletedAt)))
      .limit(1);
    return rows[0] ? MessageRepository.toRow(rows[0]) : null;
  }

  async findBySenderAndClientId(senderId: number, clientId: string): Promise<MessageRecord | null> {
    const rows = await this.db
      .select()
      .from(messages)
      .where(and(eq(messages.senderId, senderId), eq(messages.clientId, clientId)))
      .limit(1);
    return rows[0] ?? null;
  }

  /** A live (not deleted) message of the conversation, as a reply quotes it; null for none. */
  async findReplyTarget(conversationId: number, id: number): Promise<MessageRow['reply']> {
    const rows = await this.db
      .select({
        id: messages.id,
        body: messages.body,
        images: messages.images,
        senderId: messages.senderId,
        senderName: sender.name,
        senderRole: sender.role,
      })
      .from(messages)
      .leftJoin(sender, eq(sender.id, messages.senderId))
      .where(
        and(eq(messages.id, id), eq(messages.conversationId, conversationId), isNull(messages.deletedAt)),
      )
      .limit(1);
    return rows[0] ?? null;
  }

  /** Stores one message; see insertBatch. */
  async insertInOrder(input: NewMessage): Promise<InsertOutcome> {
    const [outcome] = await this.insertBatch([input]);
    return outcome!;
  }

  /**
   * Stores messages and their images, in id order (see MESSAGE_ORDER_LOCK), and moves each conversation's
   * activity time and each writer's read mark (whoever writes has read what came before). The outcomes come
   * back in input order. A message with the same sender and client id as a stored one (or an earlier one of
   * the batch) is never stored twice: the stored one comes back with `created: false`, and the caller
   * discards the images it prepared.
   *
   * It is one statement, so one round trip and its own transaction: the rows travel as one JSON parameter,
   * the order lock is taken before any id is drawn, and the other writes hang off the inserted rows.
   */
  async insertBatch(inputs: NewMessage[]): Promise<InsertOutcome[]> {
    if (inputs.length === 0) return [];
    const rows = inputs.map((input, ord) => ({
      ord,
      conversation_id: input.conversationId,
      sender_id: input.senderId,
      body: input.body,
      images: input.images.map((image) => image.id),
      reply_to_id: input.replyToId,
      announce: input.announce,
      message_type: input.messageType,
      client_id: input.clientId,
      created_at: input.now.toISOString(),
    }));
    const images = inputs.flatMap((input) =>
      input.images.map((image) => ({
        ...image,
        sender_id: input.senderId,
        client_id: input.clientId,
        created_at: input.now.toISOString(),
      })),
    );
    const now = inputs.at(-1)!.now.toISOString();
    const inserted = await executePrepared<{ id: number | string; sender_id: number; client_id: string }>(
      this.db,
      sql`
        with lock as materialized (select pg_advisory_xact_lock(${MESSAGE_ORDER_LOCK}::text::bigint)),
        ins as (
          insert into ${messages} (conversation_id, sender_id, body, images, reply_to_id, announce,
            message_type, client_id, created_at)
          select v.conversation_id, v.sender_id, v.body, v.images, v.reply_to_id, v.announce,
            v.message_type, v.client_id, v.created_at
          from json_to_recordset(${JSON.stringify(rows)}::text::json) as v(ord int, conversation_id int,
            sender_id int, body text, images text[], reply_to_id bigint, announce boolean, message_type int,
            client_id uuid, created_at timestamptz)
          cross join lock
          order by v.ord
          on conflict (sender_id, client_id) do nothing
          returning id, conversation_id, sender_id, client_id
        ),
        stored_media as (
          insert into ${media} (id, path, mime, width, height, bytes, conversation_id, message_id, owner_id,
            created_at)
          select m.id, m.path, m.mime, m.width, m.height, m.bytes, ins.conversation_id, ins.id, m.sender_id,
            m.created_at
          from json_to_recordset(${JSON.stringify(images)}::text::json) as m(id text, path text, mime text,
            width int, height int, bytes int, sender_id int, client_id uuid, created_at timestamptz)
          join ins on ins.sender_id = m.sender_id and ins.client_id = m.client_id
        ),
        activity as (
          update ${conversations} set last_activity_at = ${now}::text::timestamptz
          where id in (select conversation_id from ins)
        ),
        marks as (
          insert into ${conversationReads} (conversation_id, user_id, last_read_message_id)
          select conversation_id, sender_id, max(id) from ins group by conversation_id, sender_id
          on conflict (conversation_id, user_id) do update set last_read_message_id =
            greatest(${conversationReads}.last_read_message_id, excluded.last_read_message_id)
        )
        select id, sender_id, client_id from ins`,
    );

    const key = (senderId: number | null, clientId: string | null) => `${senderId}:${clientId}`;
    const ids = new Map(inserted.map((row) => [key(row.sender_id, row.client_id), Number(row.id)]));
    const claimed = new Set<string>();
    const outcomes: (InsertOutcome | null)[] = inputs.map((input) => {
      const k = key(input.senderId, input.clientId);
      const id = ids.get(k);
      if (id === undefined || claimed.has(k)) return null;
      claimed.add(k);
      const message: MessageRecord = {
        id,
        conversationId: input.conversationId,
        senderId: input.senderId,
        body: input.body,
        images: input.images.map((image) => image.id),
        replyToId: input.replyToId,
        announce: input.announce,
        messageType: input.messageType,
        clientId: input.clientId,
        createdAt: input.now,
        deletedAt: null,
      };
      return { message, created: true };
    });

    // Repeats of a stored client id answer the stored row (rare: a client re-sending after a lost echo).
    const repeats = inputs.filter((input, index) => outcomes[index] === null);
    if (repeats.length > 0) {
      const existing = await this.db
        .select()
        .from(messages)
        .where(
          or(
            ...repeats.map((input) =>
              and(eq(messages.senderId, input.senderId), eq(messages.clientId, input.clientId)),
            ),
          ),
        );
      const found = new Map(existing.map((row) => [key(row.senderId, row.clientId), row]));
      inputs.forEach((input, index) => {
        if (outcomes[index] === null) {
          outcomes[index] = { message: found.get(key(input.senderId, input.clientId))!, created: false };
        }
      });
    }
    return outcomes as InsertOutcome[];
  }

  /**
   * Moves the writer's read mark to their new message. Outside the order lock: a read mark only ever moves
   * forward, and one lost to a crash right after the commit costs nothing but a stale badge for the writer.
   */
  async markWritten(conversationId: number, senderId: number, messageId: number): Promise<void> {
    await this.db
      .insert(conversationReads)
      .values({ conversationId, userId: senderId, lastReadMessageId: messageId })
      .onConflictDoUpdate({
        target: [conversationReads.conversationId, conversationReads.userId],
        set: { lastReadMessageId: sql`greatest(${conversationReads.lastReadMessageId}, ${messageId})` },
      });
  }

  /** The newest `limit` messages of a conversation (older than `before` if given), newest first. */
  async page(conversationId: number, before: number | undefined, limit: number): Promise<MessageRow[]> {
    const rows = await this.select()
      .where(
        and(
          eq(messages.conversationId, conversationId),
          isNull(messages.deletedAt),
          before === undefined ? undefined : lt(messages.id, before),
        ),
      )
      .orderBy(desc(messages.id))
      .limit(limit);
    return rows.map(MessageRepository.toRow);
  }

  /** The pinned announcements of a conversation, oldest first. */
  async announcements(conversationId: number, limit: number): Promise<MessageRow[]> {
    const rows = await this.select()
      .where(
        and(
          eq(messages.conversationId, conversationId),
          eq(messages.announce, true),
          isNull(messages.deletedAt),
        ),
      )
      .orderBy(asc(messages.id))
      .limit(limit);
    return rows.map(MessageRepository.toRow);
  }

  private visibleTo(viewer: Visibility): SQL | undefined {
    if (viewer.isStaff) return undefined;
    return or(
      eq(conversations.memberId, viewer.uid),
      eq(conversations.manId, viewer.uid),
      eq(conversations.womanId, viewer.uid),
    );
  }

  /** Messages after `afterId` that the viewer may see, oldest first: a reconnecting client's catch-up. */
  async after(viewer: Visibility, afterId: number, limit: number): Promise<MessageRow[]> {
    const rows = await this.select()
      .where(and(gt(messages.id, afterId), isNull(messages.deletedAt), this.visibleTo(viewer)))
      .orderBy(asc(messages.id))
      .limit(limit);
    return rows.map(MessageRepository.toRow);
  }

  /** The newest message id the viewer may see (0 for none). */
  async newestVisibleId(viewer: Visibility): Promise<number> {
    const rows = await this.db
      .select({ id: sql<number | null>`max(${messages.id})`.mapWith(Number) })
      .from(messages)
      .innerJoin(conversations, eq(conversations.id, messages.conversationId))
      .where(this.visibleTo(viewer));
    return rows[0]?.id ?? 0;
  }

  /** Soft-deletes a message; the media it carried are deleted with it. Returns the ids of those media. */
  async softDelete(id: number, now: Date): Promise<{ deleted: boolean; mediaPaths: string[] }> {
    return this.db.transaction(async (tx) => {
      const rows = await tx
        .update(messages)
        .set({ deletedAt: now, announce: false })
        .where(and(eq(messages.id, id), isNull(messages.deletedAt)))
        .returning({ images: messages.images });
      const deleted = rows[0];
      if (!deleted) return { deleted: false, mediaPaths: [] };
      const removed =
        deleted.images.length > 0
          ? await tx.delete(media).where(inArray(media.id, deleted.images)).returning({ path: media.path })
          : [];
      return { deleted: true, mediaPaths: removed.map((row) => row.path) };
    });
  }

  /** Unpins an announcement; false when it was not pinned (or is gone). */
  async unpin(id: number): Promise<boolean> {
    const rows = await this.db
      .update(messages)
      .set({ announce: false })
      .where(and(eq(messages.id, id), eq(messages.announce, true), isNull(messages.deletedAt)))
      .returning({ id: messages.id });
    return rows.length > 0;
  }
}
