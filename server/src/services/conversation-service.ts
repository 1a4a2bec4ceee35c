import {
  ja,
  groupTalkName,
  PAGE_SIZE,
  ROLE,
  type ConversationType,
  type DeskStatus,
  jaMember,
  can,
  scope,
} from '@enishi/contract';
import { AppError, badRequest, forbidden, notFound } from '../errors.js';
import type { Clock } from '../lib/clock.js';
import type {
  ConversationAccess,
  ConversationFilter,
  ConversationListItem,
  ConversationRepository,
} from '../repositories/conversation-repository.js';
import type { UserRepository } from '../repositories/user-repository.js';
import type { ConversationRecord } from '../db/schema.js';
import type { Delivery } from '../bus/delivery.js';
import type { Audience } from '../bus/events.js';
import { deskSideOf, membersOf, readerOf, type Talk } from '../rules/conversation-rules.js';
import { roomListKey, talksChanged, type RoomListCache, type RoomListPage } from './room-list-cache.js';
import type { Actor } from './session-service.js';

/** The people a conversation reaches: its members by id, and the staff (who belong to every one). */
export function audienceOf(conversation: Omit<Talk, 'kind'>): Audience {
  return { memberIds: membersOf(conversation), staff: true };
}

/** Unread message ids listed per conversation in `unreads` (getuser); the counters have no such cap. */
const UNREAD_IDS_PER_CONVERSATION = 100;
const UNREAD_IDS_TOTAL = 2000;

/**
 * Which talks a list type holds, within the reader's scope (talk.read): one who sees every talk (staff) has
 * the lists by group; a member's 'staff' list is their desk talk and 'st' their group talks. The other types
 * answer an empty list, not an error.
 */
function filterFor(actor: Actor, type: ConversationType): Omit<ConversationFilter, 'search'> | null {
  const readable = scope(actor, 'talk.read');
  if (!readable.all) {
    if (type === 'staff') return { kind: 'desk', readable };
    if (type === 'st') return { kind: 'st', readable };
    return null;
  }
  switch (type) {
    case 'st':
      return { kind: 'st', readable };
    case 'men':
      return { kind: 'desk', readable, memberRole: ROLE.male, searchLoginId: true };
    case 'women':
      return { kind: 'desk', readable, memberRole: ROLE.female, searchLoginId: true };
    case 'staff':
      return { kind: 'staffroom', readable };
    case 'sendmen':
    case 'sendwomen':
      return { kind: type, readable };
  }
}

/** A room list as asked for: its type, keyword and page, and the desk's filters (product.md §2.6). */
export interface ListQuery {
  type: ConversationType;
  search: string;
  page: number;
  desk_status?: DeskStatus;
  assignee?: 'me' | 'none' | number;
  unread_only?: boolean;
}

/**
 * The desk's filters of a men's or women's list, for who may use them (desk.status); other lists and
 * members' lists ignore them.
 */
function deskFilter(
  actor: Actor,
  query: ListQuery,
  found: Omit<ConversationFilter, 'search'>,
): Pick<ConversationFilter, 'deskStatus' | 'assigneeId' | 'unreadOnly'> {
  if (found.kind !== 'desk' || !can(actor, 'desk.status')) return {};
  const assignee = query.assignee;
  return {
    ...(query.desk_status ? { deskStatus: query.desk_status } : {}),
    ...(assignee === undefined
      ? {}
      : { assigneeId: assignee === 'me' ? actor.uid : assignee === 'none' ? null : assignee }),
    ...(query.unread_only ? { unreadOnly: true } : {}),
  };
}

export class ConversationService {
  constructor(
    private readonly conversations: ConversationRepository,
    private readonly users: UserRepository,
    private readonly clock: Clock,
    /** Room lists kept in memory (room-list-cache.ts) and the events that drop them; none in some tests. */
    private readonly roomLists: { cache: RoomListCache; delivery: Delivery } | null = null,
  ) {}

  /**
   * One page (20) of a room list, newest activity first. Answered from the room-list cache when it holds
   * the list (room-list-cache.ts says why that is safe), else read.
   */
  async list(actor: Actor, query: ListQuery): Promise<RoomListPage> {
    const found = filterFor(actor, query.type);
    if (!found) return { rows: [], isEnd: true };
    const desk = deskFilter(actor, query, found);
    const filter = { ...found, ...desk };
    const search = query.search.trim();
    const reader = readerOf(actor);
    const cache = this.roomLists?.cache.enabled ? this.roomLists.cache : null;
    const filters = Object.keys(desk).length > 0 ? JSON.stringify(desk) : undefined;
    const key = roomListKey({ type: query.type, search, page: query.page, filters });
    const cached = cache?.get(reader, key, this.clock());
    if (cached) return cached;
    const mark = cache?.mark() ?? 0;
    const rows = await this.conversations.list(
      { ...filter, search: search || undefined },
      reader,
      query.page * PAGE_SIZE,
      PAGE_SIZE + 1,
    );
    const page = { rows: rows.slice(0, PAGE_SIZE), isEnd: rows.length <= PAGE_SIZE };
    cache?.put(reader, key, page, this.clock(), mark);
    return page;
  }

  /** A conversation the caller may see; anything else is "not found". */
  async access(actor: Actor, conversationId: number): Promise<ConversationAccess> {
    const conversation = await this.conversations.findAccess(conversationId);
    if (!conversation || !can(actor, 'talk.read', { talk: conversation })) throw notFound();
    return conversation;
  }

  async get(actor: Actor, conversationId: number): Promise<ConversationListItem> {
    const item = await this.conversations.findListItem(conversationId, readerOf(actor));
    if (!item || !can(actor, 'talk.read', { talk: item })) throw notFound();
    return item;
  }

  /** A bulk-send history (staff only). */
  async getBroadcast(actor: Actor, conversationId: number): Promise<ConversationListItem> {
    if (!can(actor, 'broadcast.read')) throw forbidden();
    const item = await this.conversations.findListItem(conversationId, readerOf(actor));
    if (!item || (item.kind !== 'sendmen' && item.kind !== 'sendwomen')) throw notFound();
    return item;
  }

  /**
   * The user's unread message ids as the original client reads them: JSON text of
   * `{"men": {convId: [ids]}, "women": {...}, "staff": {...}}`, oldest first, at most 100 per conversation.
   * A member's desk talk is under `staff`; group talks are counted by `setting` and not listed here.
   */
  async unreadsJson(user: { id: number; role: number }): Promise<string> {
    const { isStaff } = readerOf({ uid: user.id, role: user.role });
    const rows = await this.conversations.unread({ uid: user.id, isStaff }, UNREAD_IDS_TOTAL);
    const maps: Record<'men' | 'women' | 'staff', Record<string, number[]>> = {
      men: {},
      women: {},
      staff: {},
    };
    for (const row of rows) {
      let group: 'men' | 'women' | 'staff' | null = null;
      if (row.kind === 'staffroom') group = 'staff';
      else if (row.kind === 'desk') group = deskSideOf(isStaff, row.memberRole);
      if (!group) continue;
      const ids = (maps[group][String(row.conversationId)] ??= []);
      if (ids.length < UNREAD_IDS_PER_CONVERSATION) ids.push(row.messageId);
    }
    for (const group of Object.values(maps)) for (const ids of Object.values(group)) ids.reverse();
    return JSON.stringify(maps);
  }

  /** Creates the default staff room at start when there is none. */
  async ensureStaffRoom(): Promise<boolean> {
    const created = await this.conversations.ensureOne(
      'staffroom',
      ja.talk.staffRoom,
      new Date(this.clock()),
    );
    if (created) await this.roomLists?.delivery.roomListsChanged({ uids: [], staff: true });
    return created;
  }

  /**
   * A group talk of a man (101) and a woman (201), named after their given names. The call that creates
   * it comes with group registration; staff register it, recorded from their session. A pair other than a
   * man and a woman is refused (talk.group.create's rule for a pair).
   */
  async createGroupTalk(
    registeredBy: Actor,
    input: { manId: number; womanId: number },
  ): Promise<ConversationRecord> {
    if (!can(registeredBy, 'talk.group.create')) throw forbidden();
    const [man, woman] = await Promise.all([
      this.users.findById(input.manId),
      this.users.findById(input.womanId),
    ]);
    if (!man || !woman) throw badRequest();
    if (!can(registeredBy, 'talk.group.create', { pair: { manRole: man.role, womanRole: woman.role } }))
      throw badRequest();
    const created = await this.conversations.createGroupTalk({
      manId: man.id,
      womanId: woman.id,
      name: groupTalkName(man.name, woman.name),
      registeredBy: registeredBy.uid,
      now: new Date(this.clock()),
    });
    // One group talk per man and woman (product.md §12.6): a second registration is refused.
    if (!created) throw new AppError('conflict', jaMember.groups.sameGroupExists);
    await this.roomLists?.delivery.roomListsChanged(talksChanged([created]));
    return created;
  }
}
