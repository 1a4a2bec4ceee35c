import {
  groupReadCount,
  groupReadMarks,
  MESSAGES_PAGE_SIZE,
  type MessageGroup,
  type TextFrame,
  jaMember,
  can,
} from '@enishi/contract';
import type { z } from 'zod';
import { hasPostgresCode, PG_FOREIGN_KEY_VIOLATION } from '../db/errors.js';
import { AppError, badRequest, forbidden, notFound } from '../errors.js';
import { isHistoryKind, mayWrite, readerOf } from '../rules/conversation-rules.js';
import type { Clock } from '../lib/clock.js';
import { groupByJapanDate } from '../presenters/message-groups.js';
import { presentMessage } from '../presenters/message-presenter.js';
import type { Delivery } from '../bus/delivery.js';
import type { ConversationRepository } from '../repositories/conversation-repository.js';
import type { MessageRepository, MessageRow } from '../repositories/message-repository.js';
import { audienceOf, type ConversationService } from './conversation-service.js';
import type { MediaService, PictureSource } from './media-service.js';
import type { MessageFact } from '../presenters/message-fact.js';
import type { MessagePosting } from './message-posting.js';
import type { UnsendRepository } from '../repositories/unsend-repository.js';
import { readMarkMoved, talksChanged } from './room-list-cache.js';
import type { Actor } from './session-service.js';
import type { StampService } from './stamp-service.js';

/** A text frame as checked, its pictures as data URLs or as the bytes the frame reader decoded. */
export type TextInput = Omit<z.output<typeof TextFrame>, 'image'> & { image: PictureSource[] };

/** What sending gave: a new message, the one already stored under that client id, or that one deleted. */
export type SendResult =
  | { outcome: 'created' | 'duplicate'; message: MessageFact }
  | { outcome: 'deleted'; conversationId: number; messageId: number };

/** Pinned announcements shown above a talk. */
const ANNOUNCEMENTS_MAX = 50;

/**
 * Messages: reading a talk, sending, deleting, unpinning, marking read and catching up. Every change is
 * published to the conversation's audience only after its transaction has committed.
 */
export class MessageService {
  constructor(
    private readonly messages: MessageRepository,
    private readonly conversationRepository: ConversationRepository,
    private readonly conversations: ConversationService,
    private readonly media: MediaService,
    private readonly delivery: Delivery,
    private readonly posting: MessagePosting,
    private readonly clock: Clock,
    private readonly stamps: StampService,
    private readonly unsends: UnsendRepository,
  ) {}

  private fact(row: MessageRow, read = false): MessageFact {
    return this.posting.fact(row, read);
  }

  /**
   * A page of a talk: the newest 50 messages, or the 50 before `before`, grouped by Japan date (newest
   * group last), with the pinned announcements as a first group `announce` on the first page. Reading does
   * not mark the talk read; the socket's `open` frame does.
   */
  async page(
    actor: Actor,
    conversationId: number,
    before: number | undefined,
  ): Promise<{ rows: MessageGroup[]; isEnd: boolean }> {
    const conversation = await this.conversations.access(actor, conversationId);
    const [rows, pinned, marks] = await Promise.all([
      this.messages.page(conversationId, before, MESSAGES_PAGE_SIZE + 1),
      before === undefined ? this.messages.announcements(conversationId, ANNOUNCEMENTS_MAX) : [],
      conversation.kind === 'desk' || conversation.kind === 'st'
        ? this.conversationRepository.readMarks(conversationId)
        : [],
    ]);

    // 既読 in a desk talk: the member's messages are read once any staff member has read them, and the
    // staff's once the member has.
    let memberRead = 0;
    let staffRead = 0;
    for (const mark of marks) {
      if (mark.userId === conversation.memberId) memberRead = Math.max(memberRead, mark.lastReadId);
      else if (readerOf({ uid: mark.userId, role: mark.role }).isStaff)
        staffRead = Math.max(staffRead, mark.lastReadId);
    }
    const readByOtherSide = (row: MessageRow) =>
      conversation.kind === 'desk' &&
      (row.senderId === conversation.memberId ? staffRead >= row.id : memberRead >= row.id);

    // 既読 N in a group talk: how many of the other sides have read it.
    const groupMarks = conversation.kind === 'st' ? groupReadMarks(marks) : null;
    const present = (row: MessageRow) => {
      const message = presentMessage(actor, this.fact(row, readByOtherSide(row)));
      if (!groupMarks) return message;
      return { ...message, read_count: groupReadCount(groupMarks, row.senderRole ?? 0, row.id) };
    };
    const newestFirst = rows.slice(0, MESSAGES_PAGE_SIZE);
    const groups = groupByJapanDate(newestFirst.reverse().map(present));
    if (pinned.length > 0) groups.unshift({ date: 'announce', messages: pinned.map(present) });
    return { rows: groups, isEnd: rows.length <= MESSAGES_PAGE_SIZE };
  }

  /**
   * Stores a message from a chat frame. Checks come first (the talk, the reply), then the images are cleaned
   * and written outside any lock, then one short transaction stores the message in id order. The same
   * client id from the same sender never stores a second message.
   */
  async send(actor: Actor, input: TextInput): Promise<SendResult> {
    // A text message is checked against its talk in the statement that stores it. Images and replies are
    // work done, or a message shown, before that: for them the talk is checked first.
    if (input.image.length > 0 || input.reply != null || input.stamp_id !== undefined) {
      await this.conversations.access(actor, input.conversation_id);
    }

    // A repeat with images is caught before the images are cleaned again; a text-only repeat costs no
    // extra query, because the insert itself refuses a second row for the same client id.
    if (input.image.length > 0) {
      const existing = await this.messages.findBySenderAndClientId(actor.uid, input.client_id);
      if (existing) return this.answerDuplicate(existing.id, existing.conversationId);
    }

    const reply =
      input.reply == null ? null : await this.messages.findReplyTarget(input.conversation_id, input.reply);
    if (input.reply != null && !reply) throw badRequest();
    // A stamp must exist and its set be in use (product.md §12.8); otherwise nothing is stored.
    const stamp = input.stamp_id === undefined ? null : await this.stamps.sendable(input.stamp_id);

    const images = await this.media.store(input.image);
    let stored;
    try {
      stored = await this.posting.post(
        {
          conversationId: input.conversation_id,
          senderId: actor.uid,
          mayWriteAnywhere: readerOf(actor).isStaff,
          body: input.message,
          images,
          replyToId: input.reply ?? null,
          announce: input.announce,
          messageType: 0,
          stampId: stamp?.id ?? null,
          clientId: input.client_id,
          now: new Date(this.clock()),
          marksRead: true,
        },
        actor,
        reply,
        stamp,
      );
    } catch (error) {
      await this.media.remove(images.map((image) => image.path));
      // The talk went with its member's account while the message was on its way.
      if (hasPostgresCode(error, PG_FOREIGN_KEY_VIOLATION)) throw notFound();
      throw error;
    }
    if (stored.created) return { outcome: 'created', message: stored.message };
    await this.media.remove(images.map((image) => image.path));
    if (!stored.message) throw await this.refusal(actor, input.conversation_id);
    // Another frame with this client id won the race.
    return this.answerDuplicate(stored.message.id, stored.message.conversationId);
  }

  /** Why a message was not stored: a bulk-send history is read-only; anything else is "not found". */
  private async refusal(actor: Actor, conversationId: number): Promise<AppError> {
    const talk = await this.conversations.access(actor, conversationId).catch(() => null);
    return talk && isHistoryKind(talk.kind)
      ? new AppError('forbidden', jaMember.desk.readOnlyError)
      : notFound();
  }

  /**
   * Pins a message as an announcement (product.md §15.4): the message itself, by whoever may write in its
   * talk. Everyone in the talk gets it again with `announce`; pinning a pinned message changes nothing.
   */
  async pin(actor: Actor, messageId: number): Promise<void> {
    const row = await this.visibleRow(actor, messageId);
    if (!mayWrite(readerOf(actor), row)) throw new AppError('forbidden', jaMember.desk.readOnlyError);
    if (row.messageType !== 0 || !row.body.trim()) throw badRequest();
    if (row.announce) return;
    if (!(await this.messages.pin(messageId))) throw notFound();
    await this.delivery.toAudience(audienceOf(row), 'announcement.added', {
      message: this.fact({ ...row, announce: true }),
    });
  }

  private async answerDuplicate(messageId: number, conversationId: number): Promise<SendResult> {
    const row = await this.messages.findRow(messageId);
    if (!row) return { outcome: 'deleted', conversationId, messageId };
    return { outcome: 'duplicate', message: this.fact(row) };
  }

  /** Deletes a message: roles 1 to 3 any message, everyone else their own. */
  async delete(actor: Actor, messageId: number): Promise<void> {
    const row = await this.visibleRow(actor, messageId);
    if (!can(actor, 'talk.delete', { authorId: row.senderId })) throw forbidden();
    const { deleted, mediaPaths } = await this.messages.softDelete(messageId, new Date(this.clock()));
    if (!deleted) throw notFound();
    await this.media.remove(mediaPaths);
    await this.delivery.roomListsChanged(talksChanged([row]));
    await this.delivery.toAudience(audienceOf(row), 'message.deleted', {
      conversationId: row.conversationId,
      messageId,
    });
  }

  /**
   * 送信取消 (product.md §15.4): the sender takes their own message back within 24 hours. Everyone in the talk
   * gets it again in its new words; the original stays only in the audit log. Taking it back again does nothing.
   */
  async unsend(actor: Actor, messageId: number): Promise<void> {
    const row = await this.visibleRow(actor, messageId);
    if (row.unsentAt) return;
    const now = this.clock();
    const own = { talk: row, authorId: row.senderId };
    if (!can(actor, 'talk.unsend', own)) throw new AppError('forbidden', jaMember.unsend.notOwn);
    if (!can(actor, 'talk.unsend', { ...own, sentAt: row.createdAt.getTime(), now }))
      throw new AppError('bad-request', jaMember.unsend.tooLate);
    const text = jaMember.unsend.unsent;
    const unsentAt = new Date(now);
    const { changed, wasPinned } = await this.unsends.unsend(messageId, actor, text, unsentAt);
    if (!changed) return;
    const audience = audienceOf(row);
    await this.delivery.roomListsChanged(talksChanged([row]));
    if (wasPinned) {
      await this.delivery.toAudience(audience, 'announcement.removed', {
        conversationId: row.conversationId,
        messageId,
      });
    }
    const message = this.fact({ ...row, body: text, images: [], announce: false, unsentAt });
    await this.delivery.toAudience(audience, 'message.unsent', { message });
  }

  /** Unpins an announcement ('今後は表示しない'): staff, or whoever pinned it. */
  async unpin(actor: Actor, messageId: number): Promise<void> {
    const row = await this.visibleRow(actor, messageId);
    if (!row.announce) throw notFound();
    if (!can(actor, 'talk.unpin', { authorId: row.senderId })) throw forbidden();
    if (!(await this.messages.unpin(messageId))) throw notFound();
    await this.delivery.toAudience(audienceOf(row), 'announcement.removed', {
      conversationId: row.conversationId,
      messageId,
    });
  }

  private async visibleRow(actor: Actor, messageId: number): Promise<MessageRow> {
    const row = await this.messages.findRow(messageId);
    if (!row || !can(actor, 'talk.read', { talk: row })) throw notFound();
    return row;
  }

  /**
   * Marks a talk read up to its newest message. When the mark moves, the other side hears it (既読) and the
   * reader's badge counters are recomputed on all their devices.
   */
  async markRead(actor: Actor, conversationId: number): Promise<{ lastReadId: number; moved: boolean }> {
    const conversation = await this.conversations.access(actor, conversationId);
    const result = await this.conversationRepository.markRead(conversationId, actor.uid);
    if (result.moved) {
      await this.delivery.roomListsChanged(readMarkMoved(actor.uid));
      const marks =
        conversation.kind === 'st'
          ? groupReadMarks(await this.conversationRepository.readMarks(conversationId))
          : undefined;
      await this.delivery.toAudience(audienceOf(conversation), 'conversation.read', {
        conversationId,
        reader: actor.uid,
        lastReadId: result.lastReadId,
        ...(marks && { marks }),
      });
      await this.delivery.toUser(actor.uid, 'notifications.changed', {});
    }
    return result;
  }

  /** Messages after `afterId` the actor may see, oldest first, at most `limit`. */
  async after(actor: Actor, afterId: number, limit: number): Promise<MessageFact[]> {
    const rows = await this.messages.after(readerOf(actor), afterId, limit);
    return rows.map((row) => this.fact(row));
  }

  /** True when the actor may see more than `count` messages after `afterId`. */
  async moreVisibleAfter(actor: Actor, afterId: number, count: number): Promise<boolean> {
    return this.messages.moreVisibleAfter(readerOf(actor), afterId, count);
  }

  async newestVisibleId(actor: Actor): Promise<number> {
    return this.messages.newestVisibleId(readerOf(actor));
  }
}
