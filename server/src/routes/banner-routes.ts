import {
  BannerAddBody,
  BannerDeleteBody,
  BannerGetBody,
  BODY_LIMITS,
  type BannerGetReply,
  type OkReply,
  type SavedReply,
} from '@enishi/contract';
import type { apiCalls } from '../http/calls.js';
import type { BannerService } from '../services/banner-service.js';

export function bannerRoutes(calls: ReturnType<typeof apiCalls>, services: { banners: BannerService }): void {
  calls.session(
    'banner/add',
    BannerAddBody,
    async ({ body, actor }): Promise<SavedReply> => ({
      status: 'OK',
      ...(await services.banners.add(actor, body)),
    }),
    { bodyLimit: BODY_LIMITS.banner },
  );

  calls.session('banner/delete', BannerDeleteBody, async ({ body, actor }): Promise<OkReply> => {
    await services.banners.delete(actor, body.id);
    return { status: 'OK' };
  });

  calls.session('banner/get', BannerGetBody, async ({ body, actor }): Promise<BannerGetReply> => ({
    rows: await services.banners.get(actor, body),
  }));
}
