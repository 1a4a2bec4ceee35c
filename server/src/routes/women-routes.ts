import type { SiteKind } from '@enishi/contract';
import type { FastifyRequest } from 'fastify';
import type { Config } from '../config.js';
import type { apiCalls } from '../http/calls.js';
import type { EnquiryService } from '../services/enquiry-service.js';
import type { WomenService } from '../services/women-service.js';

export type SiteKinds = Config['siteKinds'];

/**
 * The site kind of the host a request came to (product.md §9.6, decision 014). Fastify's `hostname` is the
 * Host header without its port (behind a trusted proxy, the forwarded host).
 */
export function siteKindOf(siteKinds: SiteKinds, request: FastifyRequest): SiteKind {
  return siteKinds.byHost[request.hostname.toLowerCase()] ?? siteKinds.fallback;
}

/**
 * The women's list and a man's favourites (product.md §19.2-§19.4): from this server's database, or from the
 * club's external enquiry service when ENQUIRY_SERVICE_URL is set (§19.11).
 */
export function womenRoutes(
  calls: ReturnType<typeof apiCalls>,
  services: { women: WomenService; enquiry: EnquiryService | null },
  siteKinds: SiteKinds,
): void {
  const { women, enquiry } = services;
  calls.session('entrylist', 'women.browse', async ({ body, actor, request }) => {
    const kind = siteKindOf(siteKinds, request);
    return enquiry ? enquiry.list(actor, kind, body, request.log) : women.list(actor, kind, body);
  });

  calls.session('entrydetail', 'women.browse', async ({ body, actor, request }) => {
    const kind = siteKindOf(siteKinds, request);
    return enquiry ? enquiry.detail(actor, kind, body.id) : women.detail(actor, kind, body.id);
  });

  calls.session('member/getFavorite', 'women.favorite', async ({ actor, request }) => {
    const ids = enquiry
      ? await enquiry.favoriteIds(actor, siteKindOf(siteKinds, request))
      : await women.favoriteIds(actor);
    return { rows: ids.map((id) => ({ id, flg: 1 as const })) };
  });

  calls.session('member/updateFavorite', 'women.favorite', async ({ body, actor, request }) => {
    const on = body.data.flg === 1;
    if (enquiry) await enquiry.setFavorite(actor, siteKindOf(siteKinds, request), body.data.id, on);
    else await women.setFavorite(actor, body.data.id, on);
    return { status: 'OK' as const };
  });
}
