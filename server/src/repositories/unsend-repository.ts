import { and, eq, isNull, sql } from 'drizzle-orm';
import type { Database } from '../db/client.js';
import { conversations, messages, users } from '../db/schema.js';
import { insertAudit } from './audit-repository.js';

/** Who takes a message back, as the audit log names them. */
export interface Unsender {
  uid: number;
  role: number;
  name: string;
}

/**
 * 送信取消 (product.md §15.4) in one transaction: the message's text becomes `text`, its pictures (or its
 * stamp) leave it
 * and it is unpinned, while the audit log gets the original words and pictures (the picture files stay, for
 * the log). False when the message is gone or was already taken back: nothing changes then.
 */
export async function unsendMessage(
  db: Database,
  messageId: number,
  by: Unsender,
  text: string,
  now: Date,
): Promise<{ changed: boolean; wasPinned: boolean }> {
  return db.transaction(async (tx) => {
    const [original] = await tx
      .select({
        body: messages.body,
        images: messages.images,
        stampId: messages.stampId,
        announce: messages.announce,
        conversationId: messages.conversationId,
        // The talk by the name staff know it by: a group's own, a desk talk's member's.
        talkName: sql<string>`coalesce(nullif(${conversations.name}, ''), ${users.name}, '')`,
      })
      .from(messages)
      .innerJoin(conversations, eq(conversations.id, messages.conversationId))
      .leftJoin(users, eq(users.id, conversations.memberId))
      .where(and(eq(messages.id, messageId), isNull(messages.deletedAt), isNull(messages.unsentAt)))
      .for('update', { of: messages });
    if (!original) return { changed: false, wasPinned: false };
    await tx
      .update(messages)
      .set({ body: text, images: [], stampId: null, announce: false, unsentAt: now })
      .where(eq(messages.id, messageId));
    await insertAudit(tx, {
      actorId: by.uid,
      actorName: by.name.slice(0, 50),
      action: 'unsend',
      targetId: by.uid,
      targetRole: by.role,
      targetName: by.name.slice(0, 50),
      changes: {
        // [its name, its id]: the talk it was said in.
        talk: [original.talkName, original.conversationId],
        message: [original.body, text],
        images: [original.images, []],
        // A stamp taken back (product.md §12.8) leaves its id here.
        ...(original.stampId === null ? {} : { stamp: [original.stampId, null] }),
      },
    });
    return { changed: true, wasPinned: original.announce };
  });
}

/** The store of 送信取消 for the message service. */
export class UnsendRepository {
  constructor(private readonly db: Database) {}

  unsend(messageId: number, by: Unsender, text: string, now: Date) {
    return unsendMessage(this.db, messageId, by, text, now);
  }
}
