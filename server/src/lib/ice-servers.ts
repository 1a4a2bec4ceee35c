import { createHmac } from 'node:crypto';
import type { IceServer } from '@enishi/contract';

export interface IceConfig {
  /** ICE_SERVERS as configured (RTCIceServer entries). */
  servers: IceServer[];
  /** TURN_SECRET: coturn's shared secret (`use-auth-secret`); null without TURN credentials. */
  turnSecret: string | null;
  /** How long a TURN credential is valid (TURN_TTL_SECONDS). */
  turnTtlSeconds: number;
}

const isTurnUrl = (url: string) => /^turns?:/i.test(url);

/**
 * The credential coturn's `use-auth-secret` expects (the TURN REST API): username `<expiry>:<uid>` with
 * expiry in unix seconds, credential base64(HMAC-SHA1(secret, username)).
 */
export function turnCredential(
  secret: string,
  uid: number,
  expiresAt: number,
): { username: string; credential: string } {
  const username = `${expiresAt}:${uid}`;
  return { username, credential: createHmac('sha1', secret).update(username).digest('base64') };
}

/**
 * The ICE servers one user gets from `/api/config` (product.md §17.9): the configured ones, and with a TURN
 * secret, TURN entries without their own credentials carry this user's, valid `turnTtlSeconds` from `now`.
 */
export function iceServersFor(config: IceConfig, uid: number, now: number): IceServer[] {
  const { turnSecret } = config;
  if (turnSecret === null) return config.servers;
  const expiresAt = Math.floor(now / 1000) + config.turnTtlSeconds;
  return config.servers.map((server) => {
    const urls = Array.isArray(server.urls) ? server.urls : [server.urls];
    if (server.username !== undefined || !urls.some(isTurnUrl)) return server;
    return { ...server, ...turnCredential(turnSecret, uid, expiresAt) };
  });
}
