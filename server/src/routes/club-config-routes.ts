import { type ClubConfigReply, can } from '@enishi/contract';
import type { Config } from '../config.js';
import { systemClock, type Clock } from '../lib/clock.js';
import { iceServersFor } from '../lib/ice-servers.js';
import type { apiCalls } from '../http/calls.js';

/** The origins of configured course images that are not on this server, for the CSP's img-src. */
export function courseImageOrigins(config: Pick<Config, 'courseImages'>): string[] {
  const origins = config.courseImages
    .filter((src) => /^https:\/\//.test(src))
    .map((src) => new URL(src).origin);
  return [...new Set(origins)];
}

/**
 * POST /api/config {ssid} -> what the club configured for the app: the external member-site pages of the
 * male members' mypage menu (null: not configured, shown disabled), the course page's images, for men the
 * member site framed at /member, the ICE servers for voice calls, and PUBLIC_ORIGIN: the address the chat
 * socket accepts, which an app opened at another address names (product.md §15.1).
 */
export function clubConfigRoutes(
  calls: ReturnType<typeof apiCalls>,
  config: Pick<Config, 'memberSiteLinks' | 'courseImages' | 'memberSiteUrl' | 'ice' | 'publicOrigin'>,
  clock: Clock = systemClock,
): void {
  const reply: Omit<ClubConfigReply, 'iceServers'> = {
    memberSiteLinks: config.memberSiteLinks,
    courseImages: config.courseImages,
    publicOrigin: config.publicOrigin,
  };
  // The framed member site is for the male members alone (product.md §2.1 /member); ICE servers per user:
  // TURN credentials name the user and expire (product.md §17.9), and only whoever may call gets any.
  const men = { ...reply, memberSiteUrl: config.memberSiteUrl };
  calls.session('config', 'account.use', async ({ actor }) => ({
    ...(can(actor, 'member_site.open') ? men : reply),
    iceServers: can(actor, 'call.place') ? iceServersFor(config.ice, actor.uid, clock()) : [],
  }));
}
