import type { SessionEvent } from '../bus/delivery.js';
import { InvalidatedCache } from './invalidated-cache.js';
import type { Actor } from './session-service.js';

/*
 * Sessions recently read, so that checking one is a map lookup instead of a database round trip
 * (docs/decisions/002-sessions-and-passwords.md). Logout, a revoked session, a new password, a deleted or changed
 * account drop entries at once on every instance: they travel as session.ended / user.changed through the
 * realtime fan-out (Delivery.watchSessions), on this instance before they are even published. Nothing may
 * leave an ended session usable for long, whatever is missed (invalidated-cache.ts): an entry is believed
 * for SESSION_CACHE_MS at most (a session deleted by hand, an instance killed between its commit and its
 * publish), nothing while the fan-out is down, and no read begun before an invalidation.
 */

/** The longest a cached session is believed without reading the database again. */
export const SESSION_CACHE_MS = 5_000;
/** Entries at most (the oldest go first): far more than the sessions in use within SESSION_CACHE_MS. */
export const SESSION_CACHE_MAX = 50_000;

interface Entry {
  actor: Actor;
  /** Until when (ms since epoch) it is believed: the cache's bound or the session's own end. */
  until: number;
}

export class SessionCache extends InvalidatedCache<SessionEvent> {
  private readonly entries = new Map<string, Entry>();

  constructor(
    ttlMs = SESSION_CACHE_MS,
    private readonly max = SESSION_CACHE_MAX,
  ) {
    super(ttlMs);
  }

  get size(): number {
    return this.entries.size;
  }

  /** The actor of session `id` if it is cached and still believed at `now`. */
  get(id: string, now: number): Actor | null {
    const entry = this.entries.get(id);
    if (!entry) return null;
    if (now < entry.until) return entry.actor;
    this.entries.delete(id);
    return null;
  }

  /** Stores a read begun at `mark` (see InvalidatedCache.mark). */
  put(id: string, actor: Actor, now: number, mark: number): void {
    if (!this.mayStore(mark)) return;
    if (this.entries.size >= this.max && !this.entries.has(id)) {
      const oldest = this.entries.keys().next();
      if (!oldest.done) this.entries.delete(oldest.value);
    }
    const until = Math.min(now + this.ttlMs, actor.sessionEndsAt ?? Number.POSITIVE_INFINITY);
    this.entries.set(id, { actor, until });
  }

  /** A session ended, every session of a user ended, or the user changed: read them again. */
  protected forget(event: SessionEvent): void {
    if (event.event === 'session.ended' && event.sessionId !== null) {
      this.entries.delete(event.sessionId);
      return;
    }
    for (const [id, entry] of this.entries) if (entry.actor.uid === event.uid) this.entries.delete(id);
  }

  protected clear(): void {
    this.entries.clear();
  }
}
