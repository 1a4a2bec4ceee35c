import type { Audience } from '../bus/events.js';
import type { Delivery } from '../bus/delivery.js';
import type { MessageRecord } from '../db/schema.js';
import type { ConversationAccess } from '../repositories/conversation-repository.js';
import type { InsertOutcome, NewBulkSend, NewMessage } from '../repositories/message-batch-repository.js';
import type { MessageRow } from '../repositories/message-repository.js';
import { metrics } from '../lib/metrics.js';
import { audienceOf } from './conversation-service.js';
import {
  messageFact,
  type MessageFact,
  type ProfileUrl,
  type SignImages,
  type SignStamp,
} from '../presenters/message-fact.js';
import type { MessageWriter } from './message-writer.js';
import { talksChanged } from './room-list-cache.js';
import type { DeskTalkService } from './desk-talk-service.js';

/** The sender as readers see them on the message. */
export interface Sender {
  uid: number;
  name: string;
  role: number;
  image: string | null;
}

/**
 * Who a bulk send's message reaches (decision 005): its copy in a member's desk talk the member only, its
 * record in the history room the staff only.
 */
export function bulkSendAudience(talk: Pick<ConversationAccess, 'kind' | 'memberId'>): Audience {
  return talk.kind === 'desk'
    ? { memberIds: [talk.memberId!], staff: false }
    : { memberIds: [], staff: true };
}

/** A committed message and the people it reaches. */
interface StoredMessage {
  row: MessageRow;
  audience: Audience;
}

/**
 * What posting gave: the new message as readers see it, or, when nothing new was stored, the message
 * already stored under that client id (null: the talk is gone or not the sender's).
 */
export type PostOutcome =
  { created: true; message: MessageFact } | { created: false; message: MessageRecord | null };

/**
 * The one way a chat message is stored and published, for talks (MessageService) and bulk sends
 * (BroadcastService) alike. Publishing comes only after the commit, and what readers see is built from
 * what was written, not read back.
 */
export class MessagePosting {
  constructor(
    private readonly writer: MessageWriter,
    private readonly delivery: Delivery,
    private readonly signImages: SignImages,
    private readonly profileUrl: ProfileUrl,
    private readonly signStamp: SignStamp,
    /** A member's message reopens their 対応済み desk talk (product.md §2.6); none in some tests. */
    private readonly deskTalks: Pick<DeskTalkService, 'memberWrote'> | null = null,
  ) {}

  /** A stored message as every reader sees it (`read`: 既読 by the other side). */
  fact(row: MessageRow, read = false): MessageFact {
    return messageFact(row, this.signImages, read, this.profileUrl, this.signStamp);
  }

  /** Stores a talk message in id order (group commit, see MessageWriter) and publishes it when it is new. */
  async post(
    input: NewMessage,
    sender: Sender,
    reply: MessageRow['reply'],
    stamp: MessageRow['stamp'] = null,
  ): Promise<PostOutcome> {
    const stored = await this.writer.write(input);
    if (!stored.created) return stored;
    const row = { ...rowOf(stored, sender, reply), stamp };
    const [message] = await this.publish([{ row, audience: audienceOf(stored.conversation) }]);
    const { conversation } = stored;
    if (this.deskTalks && conversation.kind === 'desk' && conversation.memberId === sender.uid)
      await this.deskTalks.memberWrote(conversation.id, sender);
    return { created: true, message: message! };
  }

  /**
   * Stores a bulk send (its messages and its record, all or none; see MessageWriter.writeBulk) and
   * publishes each new message to whom bulkSendAudience says. `discard` runs when nothing was stored (not
   * when only publishing failed). Answers how many messages were stored.
   */
  async postBulk(bulk: NewBulkSend, sender: Sender, discard: () => Promise<void>): Promise<number> {
    const outcomes = await this.writer.writeBulk(bulk).catch(async (error: unknown) => {
      await discard();
      throw error;
    });
    const stored = outcomes.flatMap((outcome) =>
      outcome.created
        ? [{ row: rowOf(outcome, sender, null), audience: bulkSendAudience(outcome.conversation) }]
        : [],
    );
    await this.publish(stored, true);
    return stored.length;
  }

  /**
   * Publishes messages once their transaction has committed. The room lists of their talks are dropped
   * first (every staff member's too, even for a bulk send's copy that reaches only its member: staff see
   * every talk's last message), so a client that reloads its list on hearing the message reads it fresh.
   */
  private async publish(stored: StoredMessage[], broadcast = false): Promise<MessageFact[]> {
    const facts = stored.map(({ row }) => this.fact(row));
    const committedAt = Date.now();
    metrics.messagesStored(stored.length);
    const listsDropped =
      stored.length > 0
        ? this.delivery.roomListsChanged(talksChanged(stored.map(({ row }) => row)))
        : Promise.resolve();
    await Promise.all([
      listsDropped,
      this.delivery.deliverMessages(
        stored.map(({ audience }, index) => ({
          audience,
          event: {
            event: 'message.created',
            message: facts[index]!,
            committedAt,
            ...(broadcast ? { broadcast } : {}),
          },
        })),
      ),
    ]);
    return facts;
  }
}

/** A stored message as readers see it, from what was written, the sender and the talk (no read-back). */
function rowOf(
  stored: Extract<InsertOutcome, { created: true }>,
  sender: Sender,
  reply: MessageRow['reply'],
): MessageRow {
  const { message: record, conversation } = stored;
  return {
    id: record.id,
    conversationId: record.conversationId,
    senderId: sender.uid,
    senderName: sender.name,
    senderRole: sender.role,
    senderImage: sender.image,
    body: record.body,
    images: record.images,
    announce: record.announce,
    messageType: record.messageType,
    clientId: record.clientId,
    createdAt: record.createdAt,
    stamp: null,
    kind: conversation.kind,
    memberId: conversation.memberId,
    memberRole: conversation.memberRole,
    manId: conversation.manId,
    womanId: conversation.womanId,
    reply,
  };
}
