import type { Clock } from '../lib/clock.js';
import type { Actor, SessionService } from '../services/session-service.js';

/**
 * A connection reads its session again before a frame when this long has passed since the last read.
 * Logout, a new password, an account deleted or changed reach it at once as events (session.ended,
 * user.changed); this bounds what only the database knows, such as a session row deleted by hand.
 */
export const SESSION_RECHECK_MS = 30_000;

/** The session behind one chat socket: who it is, and when it must be read again. */
export class SocketSession {
  actor: Actor | null = null;
  private token = '';
  /** When the session was last read, and whether an event said the user changed since. */
  private readAt = 0;
  private stale = false;

  constructor(
    private readonly sessions: SessionService,
    private readonly clock: Clock,
  ) {}

  /** Reads the session of the session frame; null for an unknown, expired or logged-out one. */
  async start(token: string): Promise<Actor | null> {
    this.token = token;
    return this.read();
  }

  /** The actor, read again from the session when it may be out of date (see SESSION_RECHECK_MS). */
  async current(): Promise<Actor | null> {
    if (this.actor && !this.stale && this.clock() - this.readAt < SESSION_RECHECK_MS) return this.actor;
    return this.read();
  }

  /** True when the session, as last read, has ended by now (absolute expiry or idle time). */
  expired(): boolean {
    return this.actor?.sessionEndsAt !== undefined && this.actor.sessionEndsAt <= this.clock();
  }

  /** Reads the session again now (e.g. once it seems expired: a call over HTTP may have kept it alive). */
  async reread(): Promise<Actor | null> {
    return this.read();
  }

  userChanged(): void {
    this.stale = true;
  }

  private async read(): Promise<Actor | null> {
    this.stale = false;
    this.readAt = this.clock();
    const actor = await this.sessions.resolve(this.token);
    // A session that must set up a second factor first opens no chat (product.md §11.7).
    this.actor = actor?.secondFactorSetup ? null : actor;
    return this.actor;
  }
}
