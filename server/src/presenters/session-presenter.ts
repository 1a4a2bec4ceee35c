import Bowser from 'bowser';
import { jaMember, type SessionRow } from '@enishi/contract';
import type { SessionRecord } from '../db/schema.js';

// How a system is called where people will read it (bowser's names otherwise).
const SYSTEMS: Record<string, string> = {
  macOS: 'Mac',
  'Chrome OS': 'Chromebook',
};
// Shorter browser names than bowser's.
const BROWSERS: Record<string, string> = {
  'Microsoft Edge': 'Edge',
  'Samsung Internet for Android': 'Samsung Internet',
  'Android Browser': 'ブラウザ',
};

/**
 * The browser and system of a user agent as a person names them: "iPhone · Safari", "Mac · Chrome",
 * "Android · Chrome"; what it does not name, left out ("不明な端末" when nothing is).
 */
export function describeDevice(userAgent: string): string {
  if (!userAgent.trim()) return jaMember.sessions.unknownDevice;
  const parsed = Bowser.parse(userAgent);
  const os = parsed.os.name ?? '';
  const model = parsed.platform.model;
  const system =
    os === 'iOS' || os === 'iPadOS'
      ? model === 'iPad' || os === 'iPadOS'
        ? 'iPad'
        : 'iPhone'
      : (SYSTEMS[os] ?? os);
  const name = parsed.browser.name ?? '';
  const browser = BROWSERS[name] ?? name;
  const parts = [system, browser].filter((part) => part !== '');
  return parts.length > 0 ? parts.join(' · ') : jaMember.sessions.unknownDevice;
}

/** A session as its owner (or the staff who manage them) see it: never the token or its hash. */
export function presentSession(session: SessionRecord, currentId: string | null): SessionRow {
  return {
    id: session.publicId,
    current: session.id === currentId,
    created_at: session.createdAt.toISOString(),
    last_seen_at: session.lastSeenAt.toISOString(),
    device: describeDevice(session.userAgent),
    address: session.address,
  };
}
