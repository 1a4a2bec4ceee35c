import { and, eq, or } from 'drizzle-orm';
import type { Database } from '../db/client.js';
import { messages, type MessageRecord } from '../db/schema.js';
import type { ConversationAccess } from './conversation-repository.js';
import { INSERT_BATCH, INSERT_BULK } from './message-batch-statements.js';
import type { NewImage } from './message-repository.js';

export { MESSAGE_ORDER_LOCK } from './message-batch-statements.js';

/** What storing a message gave (see insertBatch). */
export type InsertOutcome =
  | { created: true; message: MessageRecord; conversation: ConversationAccess }
  | { created: false; message: MessageRecord }
  | { created: false; message: null };

export interface NewMessage {
  conversationId: number;
  senderId: number;
  /** Staff write in any talk; members only in their own. */
  mayWriteAnywhere: boolean;
  body: string;
  images: NewImage[];
  replyToId: number | null;
  announce: boolean;
  messageType: number;
  /** A stamp (product.md §12.8), checked by the caller: the message is that stamp alone. */
  stampId?: number | null;
  /** Chosen by the sending client (the server makes one for messages of its own). */
  clientId: string;
  now: Date;
  /** Whether writing marks the talk read for the writer; a bulk send's messages do not (decision 005). */
  marksRead: boolean;
}

/**
 * A bulk send as its statement stores it (decision 027): the record in the history room, then one copy per
 * recipient's desk talk, all by one sender with one text at one time. Only the talks and the images differ.
 */
export interface NewBulkSend {
  type: number;
  senderId: number;
  body: string;
  historyConversationId: number;
  /** Each recipient's desk talk, in recipient order, each once. */
  deskIds: number[];
  /** The history message's images, then each copy's in the order of `deskIds`; empty when it has none. */
  images: NewImage[][];
  now: Date;
  /** A scheduled send's id and the claim its instance took it with (product.md §4.6). */
  scheduled?: { id: number; claim: string } | undefined;
}

/** A message's key among its sender's: a repeat of a client id is the same message. */
const key = (senderId: number | null, clientId: string | null) => `${senderId}:${clientId}`;

/** The batch statement's parameters: the messages and their images as JSON arrays, and the batch's time. */
function batchParameters(inputs: NewMessage[]): string[] {
  // Fields at their default are left out (the statement fills them in): reading JSON costs per key.
  const rows = inputs.map((input, ord) => ({
    ord,
    conversation_id: input.conversationId,
    sender_id: input.senderId,
    body: input.body,
    client_id: input.clientId,
    created_at: input.now.toISOString(),
    ...(input.mayWriteAnywhere ? { anywhere: true } : {}),
    ...(input.images.length > 0 ? { images: input.images.map((image) => image.id) } : {}),
    ...(input.replyToId !== null ? { reply_to_id: input.replyToId } : {}),
    ...(input.announce ? { announce: true } : {}),
    ...(input.messageType !== 0 ? { message_type: input.messageType } : {}),
    ...(input.stampId ? { stamp_id: input.stampId } : {}),
    ...(input.marksRead ? { marks_read: true } : {}),
  }));
  const images = inputs.flatMap((input) =>
    input.images.map((image) => ({
      ...image,
      sender_id: input.senderId,
      client_id: input.clientId,
      created_at: input.now.toISOString(),
    })),
  );
  return [JSON.stringify(rows), JSON.stringify(images), inputs.at(-1)!.now.toISOString()];
}

/** Writes chat messages in batches, in id order: the one statement that stores a chat message. */
export class MessageBatchRepository {
  /** `ordered` is the connection whose statements run in the order they are sent (see client.ts). */
  constructor(
    private readonly db: Database,
    private readonly ordered: Database,
  ) {}

  /**
   * Stores messages and their images, in id order (see MESSAGE_ORDER_LOCK), and moves each conversation's
   * activity time and each writer's read mark (whoever writes has read what came before). The outcomes come
   * back in input order:
   * - created, with the conversation it went to (who it reaches, how each reader names it);
   * - not created, with the stored message, for a repeat of a stored client id (or of an earlier one in the
   *   batch): the caller discards the images it prepared;
   * - not created, without a message, when the conversation does not exist or the sender may not write in
   *   it: a member only in their own talks (`mayWriteAnywhere` for staff), the rule of
   *   the contract's `can(actor, 'talk.read', {talk})`.
   *
   * It is one statement, so one round trip and its own transaction: the rows travel as one JSON parameter,
   * the talk is checked in the same statement, the order lock is taken before any id is drawn, and the other
   * writes hang off the inserted rows. A bulk send has a statement of its own (insertBulk).
   */
  async insertBatch(inputs: NewMessage[]): Promise<InsertOutcome[]> {
    if (inputs.length === 0) return [];
    const answered = await INSERT_BATCH.run(this.ordered, batchParameters(inputs));

    const claimed = new Set<string>();
    const outcomes = inputs.map((input, index): InsertOutcome | null => {
      const row = answered[index]!;
      if (row.conversation_id === null) return { created: false, message: null };
      const k = key(input.senderId, input.clientId);
      if (row.id === null || claimed.has(k)) return null;
      claimed.add(k);
      const message: MessageRecord = {
        id: Number(row.id),
        conversationId: input.conversationId,
        senderId: input.senderId,
        body: input.body,
        images: input.images.map((image) => image.id),
        replyToId: input.replyToId,
        announce: input.announce,
        messageType: input.messageType,
        stampId: input.stampId ?? null,
        clientId: input.clientId,
        createdAt: input.now,
        deletedAt: null,
        unsentAt: null,
      };
      const conversation: ConversationAccess = {
        id: row.conversation_id,
        kind: row.kind!,
        memberId: row.member_id,
        memberRole: row.member_role,
        manId: row.man_id,
        womanId: row.woman_id,
      };
      return { created: true, message, conversation };
    });

    // Repeats of a stored client id answer the stored row (rare: a client re-sending after a lost echo).
    if (outcomes.includes(null)) await this.answerRepeats(inputs, outcomes);
    return outcomes as InsertOutcome[];
  }

  /** Fills the outcomes left null (repeats of a stored client id) with the stored message. */
  private async answerRepeats(inputs: NewMessage[], outcomes: (InsertOutcome | null)[]): Promise<void> {
    const repeats = inputs.filter((input, index) => outcomes[index] === null);
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
        outcomes[index] = { created: false, message: found.get(key(input.senderId, input.clientId))! };
      }
    });
  }

  /**
   * Stores a bulk send (decision 027) in one statement, so its record, its history message and every copy
   * are stored or none, in id order (the history message first, then the copies in recipient order). Copies
   * do not move the sender's read marks (decision 005). The outcomes come back as insertBatch's do, history
   * message first; a talk that is gone, or is not of the kind its place asks for, is not written to.
   */
  async insertBulk(bulk: NewBulkSend): Promise<InsertOutcome[]> {
    const hasImages = bulk.images.some((list) => list.length > 0);
    const answered = await INSERT_BULK.run(this.ordered, [
      String(bulk.historyConversationId),
      `{${bulk.deskIds.join(',')}}`,
      String(bulk.senderId),
      bulk.body,
      bulk.now.toISOString(),
      hasImages ? JSON.stringify(bulk.images) : '[]',
      String(bulk.type),
      bulk.scheduled ? String(bulk.scheduled.id) : null,
      bulk.scheduled?.claim ?? null,
    ]);
    const talks = [bulk.historyConversationId, ...bulk.deskIds];
    return answered.map((row, index): InsertOutcome => {
      if (row.id === null) return { created: false, message: null };
      const conversationId = talks[index]!;
      const message: MessageRecord = {
        id: Number(row.id),
        conversationId,
        senderId: bulk.senderId,
        body: bulk.body,
        images: (bulk.images[index] ?? []).map((image) => image.id),
        replyToId: null,
        announce: false,
        messageType: 0,
        stampId: null,
        clientId: row.client_id!,
        createdAt: bulk.now,
        deletedAt: null,
        unsentAt: null,
      };
      const conversation: ConversationAccess = {
        id: conversationId,
        kind: row.kind!,
        memberId: row.member_id,
        memberRole: row.member_role,
        manId: null,
        womanId: null,
      };
      return { created: true, message, conversation };
    });
  }
}
