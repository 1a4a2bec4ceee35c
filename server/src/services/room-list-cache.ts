import type { Delivery, RoomListChange } from '../bus/delivery.js';
import type { Fanout } from '../bus/fanout.js';
import type { ConversationListItem } from '../repositories/conversation-repository.js';
import { membersOf, type Reader, type Talk } from '../rules/conversation-rules.js';
import { InvalidatedCache } from './invalidated-cache.js';

/*
 * Room lists recently read (POST /api/conversations), so that reading one again with nothing changed is a
 * map lookup instead of a query (product.md §2.7). A list shows its talks, their members' names, ranks and
 * pictures, the last message and the reader's unread count; every write that can change one of those says
 * whose lists it changed (RoomListChange, through Delivery.roomListsChanged), on this instance at once and on
 * the others through the fan-out, before the write answers:
 * - a message stored or deleted in a talk: its members' lists and every staff member's (talksChanged);
 * - a read mark that moved: the reader's own (readMarkMoved);
 * - a talk or a member created: the lists of its members and of the staff;
 * - a user changed or deleted (user.changed, session.ended for all their sessions): every list.
 * Nothing may leave a list stale for long, whatever is missed (invalidated-cache.ts): a list is believed for
 * ROOM_LIST_CACHE_MS at most, nothing while the fan-out is down, and no read begun before an invalidation.
 */

/** The longest a cached room list is believed without reading the database again. */
export const ROOM_LIST_CACHE_MS = 5_000;
/**
 * What the cache may hold, in characters of the rows' texts plus a fixed share per row (the least recently
 * read reader's lists go first): some 16 MB, whatever the length of the last messages shown.
 */
export const ROOM_LIST_CACHE_WEIGHT = 8_000_000;
/** Weight of a row besides its texts: its numbers, dates and object. */
const ROW_WEIGHT = 200;

export interface RoomListPage {
  rows: readonly ConversationListItem[];
  isEnd: boolean;
}

/** Which list of a reader: its type, search text and page. */
export const roomListKey = (query: {
  type: string;
  search: string;
  page: number;
  /** The desk's filters (product.md §2.6), as one text. */
  filters?: string;
}): string => `${query.type}\n${query.page}\n${query.filters ?? ''}\n${query.search}`;

/** Messages stored or deleted in these talks: the lists of their members and of every staff member. */
export function talksChanged(talks: Omit<Talk, 'kind'>[]): RoomListChange {
  return { uids: [...new Set(talks.flatMap(membersOf))], staff: true };
}

/** The reader's read mark moved: only their own unread counts changed. */
export const readMarkMoved = (uid: number): RoomListChange => ({ uids: [uid], staff: false });

interface Entry {
  page: RoomListPage;
  /** Until when (ms since epoch) it is believed. */
  until: number;
  weight: number;
}

/** One reader's cached lists, by roomListKey. */
interface ReaderLists {
  isStaff: boolean;
  lists: Map<string, Entry>;
}

function weightOf(page: RoomListPage): number {
  let weight = ROW_WEIGHT;
  for (const row of page.rows) {
    weight += ROW_WEIGHT + row.name.length + (row.memberName?.length ?? 0) + (row.lastBody?.length ?? 0);
  }
  return weight;
}

export class RoomListCache extends InvalidatedCache<RoomListChange> {
  /** By reader uid, the least recently read first. */
  private readonly readers = new Map<number, ReaderLists>();
  private readonly staff = new Set<number>();
  private weight = 0;

  constructor(
    ttlMs = ROOM_LIST_CACHE_MS,
    private readonly maxWeight = ROOM_LIST_CACHE_WEIGHT,
  ) {
    super(ttlMs);
  }

  /** The reader's list under `key` if it is cached and still believed at `now`. */
  get(reader: Reader, key: string, now: number): RoomListPage | null {
    const lists = this.readers.get(reader.uid);
    const entry = lists?.lists.get(key);
    if (!lists || !entry) return null;
    if (now >= entry.until || lists.isStaff !== reader.isStaff) {
      this.remove(reader.uid, lists, key, entry);
      return null;
    }
    // The most recently read go last, so eviction takes the others first.
    this.readers.delete(reader.uid);
    this.readers.set(reader.uid, lists);
    return entry.page;
  }

  /** Stores a read begun at `mark` (see InvalidatedCache.mark). */
  put(reader: Reader, key: string, page: RoomListPage, now: number, mark: number): void {
    if (!this.mayStore(mark)) return;
    let lists = this.readers.get(reader.uid);
    if (lists && lists.isStaff !== reader.isStaff) {
      this.drop(reader.uid);
      lists = undefined;
    }
    if (!lists) {
      lists = { isStaff: reader.isStaff, lists: new Map() };
      this.readers.set(reader.uid, lists);
      if (reader.isStaff) this.staff.add(reader.uid);
    }
    const old = lists.lists.get(key);
    if (old) this.weight -= old.weight;
    // Frozen: every later reader shares these rows.
    const rows = Object.freeze(page.rows.map((row) => Object.freeze(row)));
    const entry = { page: { rows, isEnd: page.isEnd }, until: now + this.ttlMs, weight: weightOf(page) };
    lists.lists.set(key, entry);
    this.weight += entry.weight;
    while (this.weight > this.maxWeight && this.readers.size > 0) {
      this.drop(this.readers.keys().next().value!);
    }
  }

  /** A committed write changed these lists: read them again. */
  protected forget(change: RoomListChange): void {
    if ('all' in change) {
      this.clear();
      return;
    }
    for (const uid of change.uids) this.drop(uid);
    if (change.staff) for (const uid of [...this.staff]) this.drop(uid);
  }

  /** Lists held (for tests and metrics). */
  get size(): number {
    let size = 0;
    for (const lists of this.readers.values()) size += lists.lists.size;
    return size;
  }

  protected clear(): void {
    this.readers.clear();
    this.staff.clear();
    this.weight = 0;
  }

  private drop(uid: number): void {
    const lists = this.readers.get(uid);
    if (!lists) return;
    for (const entry of lists.lists.values()) this.weight -= entry.weight;
    this.readers.delete(uid);
    this.staff.delete(uid);
  }

  private remove(uid: number, lists: ReaderLists, key: string, entry: Entry): void {
    lists.lists.delete(key);
    this.weight -= entry.weight;
    if (lists.lists.size === 0) {
      this.readers.delete(uid);
      this.staff.delete(uid);
    }
  }
}

/**
 * The cache as container.ts makes it: it hears every RoomListChange from every instance, drops every list
 * when a user changed or was deleted (the session events), and keeps nothing while the fan-out may miss any.
 */
export function roomListCache(cacheMs: number, delivery: Delivery, fanout: Fanout): RoomListCache {
  const cache = new RoomListCache(cacheMs);
  delivery.watchRoomLists((change) => cache.hear(change));
  delivery.watchSessions((event) => {
    if (event.event === 'user.changed' || event.sessionId === null) cache.hear({ all: true });
  });
  fanout.onHealth?.((healthy) => cache.setTrusted(healthy));
  return cache;
}
