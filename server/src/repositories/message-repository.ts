import { and, asc, desc, eq, gt, inArray, isNull, lt, lte, sql } from 'drizzle-orm';
import type { Database } from '../db/client.js';
import { broadcastRecipients, conversations, media, messages, type MessageRecord } from '../db/schema.js';
import { mayWriteSql, seesTalkSql, talkColumnsOf, type Reader } from '../rules/conversation-rules.js';

import {
  repliedStamp,
  selectMessageRows,
  sender,
  stampOf,
  toMessageRow,
  type MessageRow,
} from './message-rows.js';

export type { MessageRow } from './message-rows.js';
export type { NewImage } from './media-repository.js';

/** Which messages a user may see: those of the talks they see (rules/conversation-rules.ts). */
export type Visibility = Reader;

// The write rule (rules/conversation-rules.ts): staff write anywhere, a member only in their own talks, and
// nobody in a bulk-send history (a bulk send writes its record there with a statement of its own, insertBulk).
export const mayWrite = sql`c.id = v.conversation_id and (${mayWriteSql(
  { uid: sql.raw('v.sender_id'), isStaff: sql.raw('v.anywhere') },
  talkColumnsOf('c'),
)})`;

export class MessageRepository {
  constructor(private readonly db: Database) {}

  private select() {
    return selectMessageRows(this.db);
  }

  async findRow(id: number): Promise<MessageRow | null> {
    const rows = await this.select()
      .where(and(eq(messages.id, id), isNull(messages.deletedAt)))
      .limit(1);
    return rows[0] ? toMessageRow(rows[0]) : null;
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
        stampId: repliedStamp.id,
        stampLabel: repliedStamp.label,
        stampImageId: repliedStamp.imageId,
      })
      .from(messages)
      .leftJoin(sender, eq(sender.id, messages.senderId))
      .leftJoin(repliedStamp, eq(repliedStamp.id, messages.stampId))
      .where(
        and(eq(messages.id, id), eq(messages.conversationId, conversationId), isNull(messages.deletedAt)),
      )
      .limit(1);
    if (!rows[0]) return null;
    const { stampId, stampLabel, stampImageId, ...reply } = rows[0];
    return { ...reply, stamp: stampOf(stampId, stampLabel, stampImageId) };
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
    return rows.map(toMessageRow);
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
    return rows.map(toMessageRow);
  }

  /** Messages after `afterId` that the viewer may see, oldest first: a reconnecting client's catch-up. */
  async after(viewer: Visibility, afterId: number, limit: number): Promise<MessageRow[]> {
    const rows = await this.select()
      .where(and(gt(messages.id, afterId), isNull(messages.deletedAt), seesTalkSql(viewer)))
      .orderBy(asc(messages.id))
      .limit(limit);
    return rows.map(toMessageRow);
  }

  /**
   * Every stored, not deleted message with `afterId < id <= upToId`, oldest first, and whether it is a bulk
   * send's copy in a member's desk talk: what an instance reads when a message's publish did not come
   * (decision 019).
   */
  async between(
    afterId: number,
    upToId: number,
    limit: number,
  ): Promise<(MessageRow & { bulkCopy: boolean })[]> {
    const rows = await this.select()
      .where(and(gt(messages.id, afterId), lte(messages.id, upToId), isNull(messages.deletedAt)))
      .orderBy(asc(messages.id))
      .limit(limit);
    if (rows.length === 0) return [];
    const copies = await this.db
      .select({ id: broadcastRecipients.messageId })
      .from(broadcastRecipients)
      .where(
        inArray(
          broadcastRecipients.messageId,
          rows.map((row) => row.id),
        ),
      );
    const bulk = new Set(copies.map((copy) => copy.id));
    return rows.map((row) => ({ ...toMessageRow(row), bulkCopy: bulk.has(row.id) }));
  }

  /** The newest stored message id (0 for none). */
  async newestId(): Promise<number> {
    const rows = await this.db
      .select({ id: sql<number | null>`max(${messages.id})`.mapWith(Number) })
      .from(messages);
    return rows[0]?.id ?? 0;
  }

  /** True when the viewer may see more than `count` messages after `afterId` (ids only, no message is loaded). */
  async moreVisibleAfter(viewer: Visibility, afterId: number, count: number): Promise<boolean> {
    const rows = await this.db
      .select({ id: messages.id })
      .from(messages)
      .innerJoin(conversations, eq(conversations.id, messages.conversationId))
      .where(and(gt(messages.id, afterId), isNull(messages.deletedAt), seesTalkSql(viewer)))
      .orderBy(asc(messages.id))
      .offset(count)
      .limit(1);
    return rows.length > 0;
  }

  /** The newest message id the viewer may see (0 for none). */
  async newestVisibleId(viewer: Visibility): Promise<number> {
    const rows = await this.db
      .select({ id: sql<number | null>`max(${messages.id})`.mapWith(Number) })
      .from(messages)
      .innerJoin(conversations, eq(conversations.id, messages.conversationId))
      .where(seesTalkSql(viewer));
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

  async pin(id: number): Promise<boolean> {
    const rows = await this.db
      .update(messages)
      .set({ announce: true })
      .where(and(eq(messages.id, id), isNull(messages.deletedAt)))
      .returning({ id: messages.id });
    return rows.length > 0;
  }

  async unpin(id: number): Promise<boolean> {
    const rows = await this.db
      .update(messages)
      .set({ announce: false })
      .where(and(eq(messages.id, id), eq(messages.announce, true), isNull(messages.deletedAt)))
      .returning({ id: messages.id });
    return rows.length > 0;
  }
}
