import type { Clock } from '../lib/clock.js';
import type { Delivery } from '../bus/delivery.js';
import { looksLikeSessionToken, newSessionToken, sha256Hex } from '../lib/tokens.js';
import type { SessionRepository } from '../repositories/session-repository.js';
import type { SessionRecord } from '../db/schema.js';
import { REAUTH_WINDOW_S, jaMember } from '@enishi/contract';
import { notFound, reauthRequired } from '../errors.js';
import type { SessionCache } from './session-cache.js';

/*
 * Session lifetime: a session dies after 30 days without use (idle) and in any case 180 days after login
 * (absolute), so a phone left logged in keeps working for a regular member while a lost or stolen token
 * stops working on its own. Logout deletes the session; deleting the user deletes all of theirs.
 */
export const SESSION_IDLE_MS = 30 * 24 * 60 * 60 * 1000;
export const SESSION_ABSOLUTE_MS = 180 * 24 * 60 * 60 * 1000;
// last_seen_at only needs minute precision for the idle rule; writing it on every call would cost a write per request.
export const SESSION_TOUCH_INTERVAL_MS = 60 * 1000;

/** Who is calling, as the server knows it from the session. Never from what the client claims. */
export interface Actor {
  uid: number;
  loginId: string;
  role: number;
  rank: number;
  name: string;
  /** The stored profile picture, shown beside their messages. */
  image: string | null;
  sessionId: string;
  /** When the session ends unless used again (idle) or at the latest (absolute), as read; ms since epoch. */
  sessionEndsAt?: number;
  /** Staff who must set up a second factor first: every call but those of /api/2fa is refused (§11.7). */
  secondFactorSetup?: boolean;
}

export class SessionService {
  constructor(
    private readonly sessions: SessionRepository,
    private readonly clock: Clock,
    private readonly delivery?: Delivery,
    private readonly cache?: SessionCache,
    /** How long a login or /api/reauth counts as fresh proof (REAUTH_WINDOW_S, product.md §11.8). */
    private readonly reauthWindowMs = REAUTH_WINDOW_S * 1000,
  ) {}

  /**
   * A sensitive change (product.md §11.8) needs the session to have proven its person lately: logged in, or
   * answered /api/reauth, within the window. Otherwise 403 with `reauth: true`.
   */
  async requireFresh(actor: Actor): Promise<void> {
    const provenAt = await this.sessions.provenAt(actor.sessionId);
    if (!provenAt || provenAt.getTime() + this.reauthWindowMs <= this.clock()) throw reauthRequired();
  }

  /** The person proved themselves again on this session: fresh until the returned time (ms since epoch). */
  async proven(actor: Actor): Promise<number> {
    const now = this.clock();
    await this.sessions.markProven(actor.sessionId, new Date(now));
    return now + this.reauthWindowMs;
  }

  /**
   * The owner switched the staff requirement: on, every session of staff without a factor may only set one
   * up; off, no session is held. The sessions' users are read again everywhere at once (session caches,
   * sockets), so it takes hold within the session cache's bound at the latest.
   */
  async staffRequirementChanged(required: boolean): Promise<void> {
    const uids = required
      ? await this.sessions.requireSetupOfStaffWithoutFactor()
      : await this.sessions.liftSetupOfAll();
    for (const uid of uids) await this.delivery?.toUser(uid, 'user.changed', {});
  }

  /**
   * Starts a session for the user and returns the token the client keeps; only its hash is stored, with the
   * user agent and address it logged in from (shown in ログイン中の端末).
   */
  async start(
    userId: number,
    userAgent: string,
    options: { address?: string; secondFactorSetup?: boolean } = {},
  ): Promise<string> {
    const token = newSessionToken();
    const now = this.clock();
    await this.sessions.create({
      id: this.idOf(token),
      userId,
      userAgent: userAgent.slice(0, 512),
      address: (options.address ?? '').slice(0, 64),
      now: new Date(now),
      expiresAt: new Date(now + SESSION_ABSOLUTE_MS),
      secondFactorSetup: options.secondFactorSetup,
    });
    return token;
  }

  /** A second factor is set up: the user's sessions that had to set one up may do everything again. */
  async secondFactorSetUp(userId: number): Promise<void> {
    await this.sessions.clearSecondFactorSetup(userId);
    // Sessions are cached on every instance (session-cache.ts): the setup flag must be read again at once.
    await this.delivery?.toUser(userId, 'user.changed', {});
  }

  /** The id a session is stored under: the hash of its token, so the table holds no usable token. */
  idOf(token: string): string {
    return sha256Hex(token);
  }

  /**
   * The caller behind a token, or null for a missing, unknown, expired or logged-out one. Answered from
   * the session cache when it holds the session (session-cache.ts says why that is safe), else read.
   */
  async resolve(token: unknown): Promise<Actor | null> {
    if (typeof token !== 'string' || !looksLikeSessionToken(token)) return null;
    const id = this.idOf(token);
    const cached = this.cache?.get(id, this.clock());
    if (cached) return cached;
    const mark = this.cache?.mark() ?? 0;
    const actor = await this.read(id);
    if (actor) this.cache?.put(id, actor, this.clock(), mark);
    return actor;
  }

  private async read(id: string): Promise<Actor | null> {
    const found = await this.sessions.findWithUser(id);
    if (!found) return null;

    const { session, user } = found;
    const now = this.clock();
    const lastSeen = session.lastSeenAt.getTime();
    if (session.expiresAt.getTime() <= now || lastSeen + SESSION_IDLE_MS <= now) {
      await this.sessions.delete(id);
      return null;
    }
    const touched = now - lastSeen >= SESSION_TOUCH_INTERVAL_MS;
    if (touched) await this.sessions.touch(id, new Date(now));

    return {
      uid: user.id,
      loginId: user.loginId,
      role: user.role,
      rank: user.rank,
      name: user.name,
      image: user.image,
      sessionId: id,
      sessionEndsAt: Math.min(session.expiresAt.getTime(), (touched ? now : lastSeen) + SESSION_IDLE_MS),
      ...(session.secondFactorSetup ? { secondFactorSetup: true } : {}),
    };
  }

  /** Logout: the session is deleted, and chat sockets opened with it close at once. */
  async end(actor: Actor): Promise<void> {
    await this.sessions.delete(actor.sessionId);
    await this.ended(actor.uid, actor.sessionId);
  }

  /** The caller's sessions (product.md §11.6 /api/sessions), the most recently used first. */
  async list(actor: Actor): Promise<SessionRecord[]> {
    return this.sessions.ofUser(actor.uid);
  }

  /** A user's sessions, for the staff who manage their record (the caller checked that). */
  async listOf(uid: number): Promise<SessionRecord[]> {
    return this.sessions.ofUser(uid);
  }

  /**
   * Ends one of the caller's own sessions by its public id: its calls get 401 and its sockets close, on
   * every instance. Someone else's id, or one already ended, is a 404 and changes nothing.
   */
  async revoke(actor: Actor, publicId: string): Promise<void> {
    const id = await this.sessions.deleteOwned(actor.uid, publicId);
    if (id === null) throw notFound(jaMember.sessions.errors.notFound);
    await this.ended(actor.uid, id);
  }

  /** Ends every session of the caller but the one they are using (fresh proof first); returns how many ended. */
  async revokeOthers(actor: Actor): Promise<number> {
    await this.requireFresh(actor);
    const count = await this.sessions.deleteOthers(actor.uid, actor.sessionId);
    if (count > 0)
      await this.delivery?.toUser(actor.uid, 'session.ended', {
        sessionId: null,
        keepSessionId: actor.sessionId,
      });
    return count;
  }

  private async ended(uid: number, sessionId: string): Promise<void> {
    await this.delivery?.toUser(uid, 'session.ended', { sessionId });
  }

  async purgeExpired(): Promise<number> {
    const now = this.clock();
    return this.sessions.deleteExpired(new Date(now), new Date(now - SESSION_IDLE_MS));
  }
}
