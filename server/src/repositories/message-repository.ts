import { and, asc, desc, eq, gt, inArray, isNull, lt, or, sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Database } from '../db/client.js';
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
  clientId: string | null;
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
   * Stores messages and their images in one transaction, in id order (see MESSAGE_ORDER_LOCK), moves each
   * conversation's activity time and each writer's read mark (whoever writes has read what came before).
   * The outcomes come back in input order. A message with the same sender and client id as a stored one (or
   * an earlier one of the batch) is never stored twice: the stored one comes back with `created: false`, and
   * the caller discards the images it prepared.
   */
  async insertBatch(inputs: NewMessage[]): Promise<InsertOutcome[]> {
    if (inputs.length === 0) return [];
    return this.db.transaction(async (tx) => {
      // Only one writer in the club draws ids at a time. Writes come in batches (see MessageWriter), so the
      // lock is taken once per batch and every round trip inside it is shared by the whole batch.
      await tx.execute(sql`select pg_advisory_xact_lock(${MESSAGE_ORDER_LOCK})`);
      const inserted = await tx
        .insert(messages)
        .values(
          inputs.map((input) => ({
            conversationId: input.conversationId,
            senderId: input.senderId,
            body: input.body,
            images: input.images.map((image) => image.id),
            replyToId: input.replyToId,
            announce: input.announce,
            messageType: input.messageType,
            clientId: input.clientId,
            createdAt: input.now,
          })),
        )
        .onConflictDoNothing({ target: [messages.senderId, messages.clientId] })
        .returning();
      inserted.sort((a, b) => a.id - b.id);

      // Match rows to inputs: rows without a client id in input order, the others by sender and client id.
      const key = (senderId: number | null, clientId: string | null) => `${senderId}:${clientId}`;
      const byKey = new Map<string, MessageRecord>();
      const anonymous: MessageRecord[] = [];
      for (const row of inserted) {
        if (row.clientId === null) anonymous.push(row);
        else byKey.set(key(row.senderId, row.clientId), row);
      }
      const claimed = new Set<string>();
      const outcomes: (InsertOutcome | null)[] = inputs.map((input) => {
        if (input.clientId === null) return { message: anonymous.shift()!, created: true };
        const k = key(input.senderId, input.clientId);
        const row = byKey.get(k);
        if (!row || claimed.has(k)) return null;
        claimed.add(k);
        return { message: row, created: true };
      });

      const repeats = inputs.filter((input, index) => outcomes[index] === null);
      if (repeats.length > 0) {
        const existing = await tx
          .select()
          .from(messages)
          .where(
            or(
              ...repeats.map((input) =>
                and(eq(messages.senderId, input.senderId), eq(messages.clientId, input.clientId!)),
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

      const created = inputs.flatMap((input, index) =>
        outcomes[index]!.created ? [{ input, id: outcomes[index]!.message.id }] : [],
      );
      const images = created.flatMap(({ input, id }) =>
        input.images.map((image) => ({
          ...image,
          conversationId: input.conversationId,
          messageId: id,
          ownerId: input.senderId,
          createdAt: input.now,
        })),
      );
      if (images.length > 0) await tx.insert(media).values(images);

      if (created.length > 0) {
        const conversationIds = [...new Set(created.map(({ input }) => input.conversationId))];
        await tx
          .update(conversations)
          .set({ lastActivityAt: created.at(-1)!.input.now })
          .where(inArray(conversations.id, conversationIds));
        // One mark per writer and conversation (a statement may not update the same row twice).
        const marks = new Map<
          string,
          { conversationId: number; userId: number; lastReadMessageId: number }
        >();
        for (const { input, id } of created) {
          marks.set(`${input.conversationId}:${input.senderId}`, {
            conversationId: input.conversationId,
            userId: input.senderId,
            lastReadMessageId: id,
          });
        }
        await tx
          .insert(conversationReads)
          .values([...marks.values()])
          .onConflictDoUpdate({
            target: [conversationReads.conversationId, conversationReads.userId],
            set: {
              lastReadMessageId: sql`greatest(${conversationReads.lastReadMessageId}, excluded.last_read_message_id)`,
            },
          });
      }
      return outcomes as InsertOutcome[];
    });
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
