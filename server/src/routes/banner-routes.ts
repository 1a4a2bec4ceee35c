import { BODY_LIMITS } from '@enishi/contract';
import type { apiCalls } from '../http/calls.js';
import type { BannerService } from '../services/banner-service.js';

export function bannerRoutes(calls: ReturnType<typeof apiCalls>, services: { banners: BannerService }): void {
  calls.session(
    'banner/add',
    'content.manage',
    async ({ body, actor }) => ({
      status: 'OK',
      ...(await services.banners.add(actor, body)),
    }),
    { bodyLimit: BODY_LIMITS.banner },
  );

  calls.session('banner/delete', 'content.manage', async ({ body, actor }) => {
    await services.banners.delete(actor, body.id);
    return { status: 'OK' };
  });

  calls.session('banner/get', 'content.read', async ({ body, actor }) => ({
    rows: await services.banners.get(actor, body),
  }));
}
