import type { SiteKind } from '@enishi/contract';
import type { FastifyRequest } from 'fastify';
import type { Config } from '../config.js';
import type { apiCalls } from '../http/calls.js';
import type { WomenService } from '../services/women-service.js';

export type SiteKinds = Config['siteKinds'];

/**
 * The site kind of the host a request came to (product.md §9.6, decision 014). Fastify's `hostname` is the
 * Host header without its port (behind a trusted proxy, the forwarded host).
 */
export function siteKindOf(siteKinds: SiteKinds, request: FastifyRequest): SiteKind {
  return siteKinds.byHost[request.hostname.toLowerCase()] ?? siteKinds.fallback;
}

/** The women's list and a man's favourites (product.md §19.2-§19.4). */
export function womenRoutes(
  calls: ReturnType<typeof apiCalls>,
  services: { women: WomenService },
  siteKinds: SiteKinds,
): void {
  calls.session('entrylist', 'women.browse', async ({ body, actor, request }) =>
    services.women.list(actor, siteKindOf(siteKinds, request), body),
  );

  calls.session('entrydetail', 'women.browse', async ({ body, actor, request }) =>
    services.women.detail(actor, siteKindOf(siteKinds, request), body.id),
  );

  calls.session('member/getFavorite', 'women.favorite', async ({ actor }) => ({
    rows: (await services.women.favoriteIds(actor)).map((id) => ({ id, flg: 1 as const })),
  }));

  calls.session('member/updateFavorite', 'women.favorite', async ({ body, actor }) => {
    await services.women.setFavorite(actor, body.data.id, body.data.flg === 1);
    return { status: 'OK' as const };
  });
}
