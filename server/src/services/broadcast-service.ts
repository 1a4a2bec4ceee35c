import { randomBytes } from 'node:crypto';
import { copyFile, link, mkdir } from 'node:fs/promises';
import path from 'node:path';
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
} from '@enishi/contract';
import { badRequest, forbidden, notFound } from '../errors.js';
import type { Clock } from '../lib/clock.js';
import type { BroadcastRepository } from '../repositories/broadcast-repository.js';
import type { ConversationRepository } from '../repositories/conversation-repository.js';
import type { NewBulkSend } from '../repositories/message-batch-repository.js';
import type { NewImage } from '../repositories/message-repository.js';
import type { MediaService } from './media-service.js';
import type { MessagePosting } from './message-posting.js';
import type { Actor } from './session-service.js';

export interface BroadcastInput {
  type?: ContentType | undefined;
  users: number[];
  message: string;
  image: string[];
}

/** File links made at once while copying a bulk send's images. */
const LINK_CONCURRENCY = 32;

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
    const uids = [...new Set(input.users)];
    const found = await this.broadcasts.findRecipients(uids);
    if (found.length !== uids.length) throw notFound();
    // One group's members (1 men, 2 women: their news group), the group the send names if it names one.
    const groupOf = (recipient: { role: number }) => ROLE_TRAITS[recipient.role]?.contentType ?? null;
    const type = groupOf(found[0]!);
    const oneGroup =
      type !== null &&
      found.every((recipient) => groupOf(recipient) === type) &&
      (input.type === undefined || input.type === type);
    if (!oneGroup) throw badRequest(jaMember.broadcast.wrongGroup);
    // Every member has a desk talk from the moment they exist (product.md §12.1); one without is not a recipient.
    if (found.some((recipient) => recipient.deskId === null)) throw notFound();
    const kind = type === CONTENT_TYPE.women ? 'sendwomen' : 'sendmen';

    const [sender, historyConversationId] = await Promise.all([
      this.broadcasts.sender(actor.uid),
      this.historyConversation(kind),
    ]);
    if (!sender) throw notFound();

    const historyImages = await this.media.store(input.image);
    const written = historyImages.map((image) => image.path);
    const discard = () => this.media.remove(written);
    const copies = await this.copyImages(historyImages, found.length, written).catch(
      async (error: unknown) => {
        await discard();
        throw error;
      },
    );
    const bulk: NewBulkSend = {
      type,
      senderId: actor.uid,
      body: input.message,
      historyConversationId,
      deskIds: found.map((recipient) => recipient.deskId!),
      images: historyImages.length > 0 ? [historyImages, ...copies] : [],
      now: new Date(this.clock()),
    };
    await this.posting.postBulk(bulk, { uid: actor.uid, ...sender }, discard);
    return { count: found.length };
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

  /**
   * Each recipient's message owns its images (deleting one copy must not take the others' pictures), so
   * every recipient gets its own media ids. The files are hard links to the one cleaned file: no bytes are
   * copied, and removing one link leaves the others. Where links are not possible, the file is copied.
   * Every path made is pushed to `written`, for clean-up on failure.
   */
  private async copyImages(images: NewImage[], count: number, written: string[]): Promise<NewImage[][]> {
    if (images.length === 0) return [];
    const made = new Set<string>();
    const result: NewImage[][] = Array.from({ length: count }, () => []);
    const jobs: { source: NewImage; target: NewImage }[] = [];
    for (let recipient = 0; recipient < count; recipient += 1) {
      for (const source of images) {
        const id = randomBytes(16).toString('base64url');
        const target = {
          ...source,
          id,
          path: path.join(id.slice(0, 2), `${id}${path.extname(source.path)}`),
        };
        result[recipient]!.push(target);
        jobs.push({ source, target });
      }
    }
    let next = 0;
    const worker = async () => {
      while (next < jobs.length) {
        const { source, target } = jobs[next++]!;
        const folder = path.dirname(target.path);
        if (!made.has(folder)) {
          await mkdir(path.join(this.mediaDir, folder), { recursive: true });
          made.add(folder);
        }
        const from = path.join(this.mediaDir, source.path);
        const to = path.join(this.mediaDir, target.path);
        await link(from, to).catch(() => copyFile(from, to));
        written.push(target.path);
      }
    };
    await Promise.all(Array.from({ length: LINK_CONCURRENCY }, worker));
    return result;
  }
}
