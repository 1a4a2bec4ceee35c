import { type ClubConfigReply } from '@enishi/contract';
import type { Config } from '../config.js';
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
 * male members' mypage menu (null: not configured, shown disabled) and the course page's images.
 */
export function clubConfigRoutes(
  calls: ReturnType<typeof apiCalls>,
  config: Pick<Config, 'memberSiteLinks' | 'courseImages'>,
): void {
  const reply: ClubConfigReply = {
    memberSiteLinks: config.memberSiteLinks,
    courseImages: config.courseImages,
  };
  calls.session('config', async () => reply);
}
