import type { ContentType } from '@enishi/contract';
import { api } from '@/lib/api-client';

/** POST /api/banner/add {url, type, image} -> {status: 'OK', id}. */
export function addBanner(body: { url: string; type: ContentType; image: string }) {
  return api('banner/add', body);
}
