import { OkReply } from '@enishi/contract';
import { apiCall } from '@/lib/api-client';

/** POST /api/banner/delete {id} -> {status: 'OK'}. */
export function deleteBanner(id: number) {
  return apiCall('banner/delete', { id }, { reply: OkReply });
}
