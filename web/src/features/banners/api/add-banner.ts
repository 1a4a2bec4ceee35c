import { SavedReply, type ContentType } from '@enishi/contract';
import { apiCall } from '@/lib/api-client';

/** POST /api/banner/add {url, type, image} -> {status: 'OK', id}. */
export function addBanner(body: { url: string; type: ContentType; image: string }) {
  return apiCall('banner/add', body, { reply: SavedReply });
}
