import {
  BROADCASTS_PAGE_SIZE,
  CONTENT_TYPE,
  contentTypeOf,
  ja,
  ROLE_TRAITS,
  roleOfContentType,
  type BroadcastRow,
  type ContentType,
  type RecipientRow,
  jaMember,
  can,
  SCHEDULE_GRACE_MS,
  SCHEDULE_MAX_DAYS,
  type ScheduledRow,
} from '@enishi/contract';
import { randomUUID } from 'node:crypto';
import { AppError, badRequest, forbidden, notFound } from '../errors.js';
import type { Clock } from '../lib/clock.js';
import type { BroadcastRepository, RecipientRecord } from '../repositories/broadcast-repository.js';
import type { ScheduledBroadcastRepository } from '../repositories/scheduled-broadcast-repository.js';
import type { ConversationRepository } from '../repositories/conversation-repository.js';
import type { NewBulkSend } from '../repositories/message-batch-repository.js';
import type { NewImage } from '../repositories/message-repository.js';
import { copyImages } from './bulk-send-images.js';
import type { MediaService } from './media-service.js';
import type { MessagePosting } from './message-posting.js';
import type { Actor } from './session-service.js';

export interface BroadcastInput {
  type?: ContentType | undefined;
  users: number[];
  message: string;
  image: string[];
  /** ISO 8601 with an offset (the contract checked its form): when to send, instead of now. */
  send_at?: string | undefined;
}

/** A claim older than this belongs to an instance that died mid-send: another may take the send over. */
export const SCHEDULE_CLAIM_STALE_MS = 2 * 60 * 1000;
const DAY_MS = 24 * 60 * 60 * 1000;

const tooLate = () => new AppError('conflict', jaMember.broadcast.scheduledGone);

/**
 * Bulk sends (一括送信, product.md §4): one message from a staff member into the desk talk of every chosen man
 * (or woman), with a copy in the group's sendmen/sendwomen history and a record for read counts.
 */
export class BroadcastService {
  constructor(
    private readonly broadcasts: BroadcastRepository,
    private readonly conversations: ConversationRepository,
    private readonly media: MediaService,
    private readonly posting: MessagePosting,
    private readonly mediaDir: string,
    private readonly clock: Clock,
    private readonly scheduled: ScheduledBroadcastRepository,
  ) {}

  /**
   * Checks every recipient (all must exist and be members of one group), cleans the images once, stores
   * the history message, every copy and the record in one statement through MessagePosting (the step a
   * talk message takes; the copies do not mark the desk talks read for the sender), and only then
   * publishes: each recipient hears of their own copy (their badges rise), staff hear of the history
   * message. Staff are not sent every copy: a few thousand events per staff socket would only be noise, and
   * their room lists show the copies when next loaded.
   */
  async send(actor: Actor, input: BroadcastInput): Promise<{ count: number }> {
    if (!can(actor, 'broadcast.send')) throw forbidden();
    const sendAt = input.send_at === undefined ? null : this.checkedSendAt(input.send_at);
    const uids = [...new Set(input.users)];
    const found = await this.broadcasts.findRecipients(uids);
    if (found.length !== uids.length) throw notFound();
    const type = this.groupOf(found, input.type);
    if (sendAt !== null) {
      // The pictures are cleaned now, so a bad one is refused while staff are still at the form.
      const images = await this.media.store(input.image);
      await this.scheduled
        .insert({ type, senderId: actor.uid, recipients: uids, body: input.message, images, sendAt })
        .catch(async (error: unknown) => {
          await this.media.remove(images.map((image) => image.path));
          throw error;
        });
      return { count: found.length };
    }
    const sender = await this.broadcasts.sender(actor.uid);
    if (!sender) throw notFound();
    const historyImages = await this.media.store(input.image);
    await this.deliver(
      { type, sender: { uid: actor.uid, ...sender }, body: input.message, found },
      historyImages,
    );
    return { count: found.length };
  }

  /** Staff: the group's sends still to go, soonest first (product.md §4.6). */
  async pending(actor: Actor, type: ContentType): Promise<ScheduledRow[]> {
    if (!can(actor, 'broadcast.read')) throw forbidden();
    const items = await this.scheduled.pending(type);
    return items.map((item) => ({
      id: item.id,
      type: contentTypeOf(item.type),
      message: item.body,
      image_count: item.images.length,
      name: item.senderName ?? ja.talk.formerUser,
      count: item.count,
      send_at: item.sendAt.toISOString(),
      state: item.state,
    }));
  }

  /** A new time and text for a send that has not gone yet; 409 once it is sending, sent or cancelled. */
  async reschedule(actor: Actor, id: number, sendAtText: string, body: string): Promise<void> {
    if (!can(actor, 'broadcast.send')) throw forbidden();
    const sendAt = this.checkedSendAt(sendAtText);
    const existing = await this.scheduled.find(id);
    if (!existing) throw notFound();
    if (body.trim() === '' && existing.images.length === 0) throw badRequest(ja.talk.emptyComment);
    if (!(await this.scheduled.update(id, { sendAt, body }))) throw tooLate();
  }

  /** Takes back a send that has not gone yet (its pictures with it); 409 once it is sending or sent. */
  async cancel(actor: Actor, id: number): Promise<void> {
    if (!can(actor, 'broadcast.send')) throw forbidden();
    if (!(await this.scheduled.find(id))) throw notFound();
    const images = await this.scheduled.cancel(id);
    if (images === null) throw tooLate();
    await this.media.remove(images.map((image) => image.path));
  }

  /**
   * Sends one due scheduled send, if there is one: claims it (with SKIP LOCKED, so instances take different
   * ones) and stores it through the same statement as a send made now, which marks it sent only while this
   * claim still holds it. Answers whether one was claimed, so the scheduler can look for the next at once.
   * Members gone since it was scheduled are left out; with none left, or its sender gone, it fails.
   */
  async sendDue(): Promise<boolean> {
    const now = this.clock();
    const claim = randomUUID();
    const record = await this.scheduled.claimDue(
      new Date(now),
      new Date(now - SCHEDULE_CLAIM_STALE_MS),
      claim,
    );
    if (!record) return false;
    const found = (await this.broadcasts.findRecipients(record.recipients)).filter(
      (recipient) => recipient.deskId !== null && ROLE_TRAITS[recipient.role]?.contentType === record.type,
    );
    const sender = record.senderId === null ? null : await this.broadcasts.sender(record.senderId);
    if (found.length === 0 || !sender || record.senderId === null) {
      await this.scheduled.fail(record.id, claim);
      await this.media.remove(record.images.map((image) => image.path));
      return true;
    }
    await this.deliver(
      {
        type: record.type as ContentType,
        sender: { uid: record.senderId, ...sender },
        body: record.body,
        found,
        scheduled: { id: record.id, claim },
      },
      record.images,
      false,
    );
    return true;
  }

  /** 400 for a time in the past (a few minutes' grace for the time spent at the form) or too far ahead. */
  private checkedSendAt(text: string): Date {
    const at = Date.parse(text);
    if (Number.isNaN(at)) throw badRequest(jaMember.broadcast.sendAtMalformed);
    const now = this.clock();
    if (at < now - SCHEDULE_GRACE_MS) throw badRequest(jaMember.broadcast.sendAtPast);
    if (at > now + SCHEDULE_MAX_DAYS * DAY_MS) throw badRequest(jaMember.broadcast.sendAtTooFar);
    return new Date(at);
  }

  /** One group's members (1 men, 2 women: their news group), the group the send names if it names one. */
  private groupOf(found: RecipientRecord[], named: ContentType | undefined): ContentType {
    const groupOf = (recipient: { role: number }) => ROLE_TRAITS[recipient.role]?.contentType ?? null;
    const type = groupOf(found[0]!);
    const oneGroup =
      type !== null &&
      found.every((recipient) => groupOf(recipient) === type) &&
      (named === undefined || named === type);
    if (!oneGroup) throw badRequest(jaMember.broadcast.wrongGroup);
    // Every member has a desk talk from the moment they exist (product.md §12.1); one without is not a recipient.
    if (found.some((recipient) => recipient.deskId === null)) throw notFound();
    return type;
  }

  /**
   * Stores the history message, every copy and the record in one statement through MessagePosting (the
   * step a talk message takes; the copies do not mark the desk talks read for the sender), and only then
   * publishes: each recipient hears of their own copy (their badges rise), staff hear of the history
   * message. Staff are not sent every copy: a few thousand events per staff socket would only be noise, and
   * their room lists show the copies when next loaded. The history's pictures are removed on failure only
   * when they were stored for this send (`ownsHistory`), not a scheduled send's, which another try uses.
   */
  private async deliver(
    send: {
      type: ContentType;
      sender: { uid: number; name: string; role: number; image: string | null };
      body: string;
      found: RecipientRecord[];
      scheduled?: { id: number; claim: string };
    },
    historyImages: NewImage[],
    ownsHistory = true,
  ): Promise<void> {
    const kind = send.type === CONTENT_TYPE.women ? 'sendwomen' : 'sendmen';
    const written = ownsHistory ? historyImages.map((image) => image.path) : [];
    const discard = () => this.media.remove(written);
    const historyConversationId = await this.historyConversation(kind).catch(async (error: unknown) => {
      await discard();
      throw error;
    });
    const copies = await copyImages(this.mediaDir, historyImages, send.found.length, written).catch(
      async (error: unknown) => {
        await discard();
        throw error;
      },
    );
    const bulk: NewBulkSend = {
      type: send.type,
      senderId: send.sender.uid,
      body: send.body,
      historyConversationId,
      deskIds: send.found.map((recipient) => recipient.deskId!),
      images: historyImages.length > 0 ? [historyImages, ...copies] : [],
      now: new Date(this.clock()),
      scheduled: send.scheduled,
    };
    const stored = await this.posting.postBulk(bulk, send.sender, discard);
    // Another instance stored it first (its claim had gone stale): this one's copies of the pictures go.
    if (stored === 0) await discard();
  }

  /** Staff: every member of the group, for the recipient picker. */
  async recipients(actor: Actor, type: ContentType): Promise<RecipientRow[]> {
    if (!can(actor, 'broadcast.send')) throw forbidden();
    return this.broadcasts.membersWithRole(roleOfContentType(type));
  }

  /** Staff: a page (20) of the group's bulk sends, newest first, with read counts. */
  async list(
    actor: Actor,
    type: ContentType,
    page: number,
  ): Promise<{ rows: BroadcastRow[]; isEnd: boolean }> {
    if (!can(actor, 'broadcast.read')) throw forbidden();
    const items = await this.broadcasts.list(type, page * BROADCASTS_PAGE_SIZE, BROADCASTS_PAGE_SIZE + 1);
    const rows = items.slice(0, BROADCASTS_PAGE_SIZE).map((item): BroadcastRow => ({
      id: item.id,
      type: contentTypeOf(item.type),
      message: item.body,
      image: item.deleted ? [] : this.media.sign(item.images),
      name: item.senderName ?? ja.talk.formerUser,
      date: item.createdAt.toISOString(),
      count: item.count,
      read: item.read,
      delivered: item.delivered,
      pushed: item.pushed,
    }));
    return { rows, isEnd: items.length <= BROADCASTS_PAGE_SIZE };
  }

  private async historyConversation(kind: 'sendmen' | 'sendwomen'): Promise<number> {
    const existing = await this.broadcasts.findHistory(kind);
    if (existing !== null) return existing;
    const name = kind === 'sendmen' ? ja.menu.sendMen : ja.menu.sendWomen;
    await this.conversations.ensureOne(kind, name, new Date(this.clock()));
    const created = await this.broadcasts.findHistory(kind);
    if (created === null) throw new Error(`no ${kind} conversation`);
    return created;
  }
}
