import {
  ja,
  SEARCH_PAGE_SIZE,
  type CannedReply,
  type MessageSearchReply,
  type NotesReply,
  type SearchHit,
  jaMember,
  can,
  scope,
} from '@enishi/contract';
import { AppError, forbidden, notFound } from '../errors.js';
import type { Clock } from '../lib/clock.js';
import { conversationType } from '../presenters/conversation-presenter.js';
import type { DeskRepository, SearchRow } from '../repositories/desk-repository.js';
import type { ConversationService } from './conversation-service.js';
import type { Actor } from './session-service.js';

/**
 * A query of one or two characters has no trigram to look up, so across all talks it reads a window of this
 * many message ids at a time, newest first (product.md §11.6); a page may then come back short or empty with
 * `next` set, and the client asks for the window below.
 */
export const SHORT_QUERY_WINDOW = 50_000;
/** Characters of a hit shown before the first match; the snippet is at most SNIPPET_MAX long. */
const SNIPPET_BEFORE = 30;
const SNIPPET_MAX = 120;

/** The part of a message around the first match, with … where it was cut. */
export function snippet(body: string, text: string): string {
  const chars = [...body];
  const at = body.toLowerCase().indexOf(text.toLowerCase());
  const start = at < 0 ? 0 : Math.max(0, [...body.slice(0, at)].length - SNIPPET_BEFORE);
  const end = Math.min(chars.length, start + SNIPPET_MAX);
  return `${start > 0 ? '…' : ''}${chars.slice(start, end).join('')}${end < chars.length ? '…' : ''}`;
}

function conflict(message: string) {
  return new AppError('conflict', message);
}

const requireStaff = (actor: Actor) => {
  if (!can(actor, 'desk.use')) throw forbidden();
};

/** The staff desk (product.md §2.6): message search for everyone, saved replies and notes for staff. */
export class DeskService {
  constructor(
    private readonly desk: DeskRepository,
    private readonly conversations: ConversationService,
    private readonly clock: Clock,
  ) {}

  /**
   * Messages the caller may see whose text contains `q`, newest first: in one talk (which the caller must
   * see, else 404) or in every talk they see.
   */
  async search(
    actor: Actor,
    input: { q: string; conversation_id?: number | undefined; before?: number | undefined },
  ): Promise<MessageSearchReply> {
    const conversationId = input.conversation_id;
    if (conversationId !== undefined) await this.conversations.access(actor, conversationId);
    let after: number | undefined;
    if ([...input.q].length < 3 && conversationId === undefined) {
      const top = input.before ?? (await this.desk.newestMessageId()) + 1;
      after = Math.max(0, top - 1 - SHORT_QUERY_WINDOW);
    }
    const rows = await this.desk.search({
      readable: scope(actor, 'talk.read'),
      text: input.q,
      stamps: jaMember.talkLimit.stamp.preview.toLowerCase().includes(input.q.toLowerCase()),
      conversationId,
      before: input.before,
      after,
      limit: SEARCH_PAGE_SIZE + 1,
    });
    const page = rows.slice(0, SEARCH_PAGE_SIZE);
    let next: number | null = null;
    if (rows.length > SEARCH_PAGE_SIZE) next = page.at(-1)!.id;
    else if (after !== undefined && after > 0) next = after + 1;
    return { rows: page.map((row) => this.hit(actor, row, input.q)), isEnd: next === null, next };
  }

  private hit(actor: Actor, row: SearchRow, text: string): SearchHit {
    const staff = can(actor, 'desk.use');
    const name = row.kind === 'desk' ? (staff ? (row.memberName ?? '') : ja.talk.staffDesk) : row.roomName;
    return {
      id: row.id,
      conversation_id: row.conversationId,
      conversation_type: conversationType(actor.role, row.kind, row.memberRole),
      conversation_name: name,
      from: row.senderId ?? 0,
      name: row.senderName ?? ja.talk.formerUser,
      role: row.senderRole ?? 0,
      message: row.isStamp ? jaMember.talkLimit.stamp.preview : snippet(row.body, text),
      date: row.createdAt.toISOString(),
    };
  }

  async cannedReplies(actor: Actor): Promise<{ rows: CannedReply[] }> {
    requireStaff(actor);
    const rows = await this.desk.listCanned();
    return {
      rows: rows.map((row) => ({
        id: row.id,
        name: row.name,
        body: row.body,
        updated_by: row.updatedByName,
        updated_at: row.updatedAt.toISOString(),
      })),
    };
  }

  async saveCanned(
    actor: Actor,
    input: { id?: number | undefined; name: string; body: string },
  ): Promise<{ rows: CannedReply[] }> {
    if (!can(actor, 'reply.manage')) throw forbidden();
    if (input.id === undefined && (await this.desk.countCanned()) >= 200) {
      throw new AppError('bad-request', jaMember.cannedReplies.replyTooMany);
    }
    const outcome = await this.desk.saveCanned({
      ...input,
      by: { uid: actor.uid, name: actor.name },
      now: new Date(this.clock()),
    });
    if (outcome === 'missing') throw notFound();
    if (outcome === 'taken') throw conflict(jaMember.cannedReplies.replyNameTaken);
    return this.cannedReplies(actor);
  }

  async deleteCanned(actor: Actor, id: number): Promise<{ rows: CannedReply[] }> {
    if (!can(actor, 'reply.manage')) throw forbidden();
    if (!(await this.desk.deleteCanned(id))) throw notFound();
    return this.cannedReplies(actor);
  }

  /** The member's summary and the staff's notes on them, newest first. Staff only; a non-member is 404. */
  async notes(actor: Actor, memberId: number): Promise<NotesReply> {
    requireStaff(actor);
    const member = await this.desk.findMember(memberId);
    if (!member || !can(actor, 'member.profile.read', { uid: member.id, role: member.role }))
      throw notFound();
    const rows = await this.desk.listNotes(member.id);
    return {
      member: {
        uid: member.id,
        id: member.loginId,
        name: member.name,
        role: member.role,
        rank: member.rank,
        image: member.image,
        introducer: member.introducer,
        created_at: member.createdAt.toISOString(),
      },
      rows: rows.map((row) => ({
        id: row.id,
        body: row.body,
        author: row.authorName,
        author_uid: row.authorId,
        created_at: row.createdAt.toISOString(),
      })),
    };
  }

  async addNote(actor: Actor, memberId: number, body: string): Promise<NotesReply> {
    await this.notes(actor, memberId);
    await this.desk.addNote({
      memberId,
      authorId: actor.uid,
      authorName: actor.name,
      body,
      now: new Date(this.clock()),
    });
    return this.notes(actor, memberId);
  }

  /** Deletes a note: its author, or roles 1 to 3. */
  async deleteNote(actor: Actor, id: number): Promise<NotesReply> {
    requireStaff(actor);
    const note = await this.desk.findNote(id);
    if (!note) throw notFound();
    if (note.authorId !== actor.uid && !can(actor, 'note.delete_any')) throw forbidden();
    if (!(await this.desk.deleteNote(id, note.memberId))) throw notFound();
    return this.notes(actor, note.memberId);
  }
}
