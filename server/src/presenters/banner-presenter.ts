import { contentTypeOf, type BannerRow } from '@enishi/contract';
import type { BannerItem } from '../repositories/banner-repository.js';

/** A banner as the client sees it: its image id becomes a signed URL. */
export function presentBanner(item: BannerItem, signImage: (id: string) => string): BannerRow {
  return { id: item.id, url: item.url, image: signImage(item.imageId), type: contentTypeOf(item.type) };
}
