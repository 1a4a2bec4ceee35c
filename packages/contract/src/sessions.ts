import { z } from 'zod';
import * as jaMember from './ja-member.js';
import { ssid, uid } from './common.js';

/*
 * Sessions a person can see and end (product.md §11.6): their own from mypage, and every session of a member
 * for the staff who manage that member's record (a lost phone). A session's `id` here is an opaque id of its
 * own, never the token or anything derived from it.
 */

// POST /api/sessions {ssid} -> {rows}
export const SessionsBody = z.object({ ssid }).strict();
export type SessionsBody = z.input<typeof SessionsBody>;

export const SessionRow = z.object({
  id: z.string(),
  /** The session this call was made with. */
  current: z.boolean(),
  created_at: z.string(),
  last_seen_at: z.string(),
  /** The browser and system, read from the user agent ("iPhone · Safari"). */
  device: z.string(),
  /** The address the session logged in from. */
  address: z.string(),
});
export type SessionRow = z.infer<typeof SessionRow>;
export const SessionsReply = z.object({ rows: z.array(SessionRow) });
export type SessionsReply = z.infer<typeof SessionsReply>;

/** A session's id as /api/sessions gave it; anything else is "no such session of yours". */
const sessionId = z.guid({ error: jaMember.sessions.errors.notFound });

// POST /api/sessions/revoke {ssid, id} -> {rows}: the list as it now stands
export const SessionRevokeBody = z.object({ ssid, id: sessionId }).strict();
export type SessionRevokeBody = z.input<typeof SessionRevokeBody>;

// POST /api/sessions/revoke_others {ssid} -> {rows}: only the current session is left
export const SessionRevokeOthersBody = z.object({ ssid }).strict();
export type SessionRevokeOthersBody = z.input<typeof SessionRevokeOthersBody>;

// POST /api/user/sessions {ssid, user_id} -> {rows} and /api/user/sessions/revoke {ssid, user_id} -> {count}
export const UserSessionsBody = z.object({ ssid, user_id: uid }).strict();
export type UserSessionsBody = z.input<typeof UserSessionsBody>;
export const UserSessionsRevokeReply = z.object({ count: z.number() });
export type UserSessionsRevokeReply = z.infer<typeof UserSessionsRevokeReply>;
