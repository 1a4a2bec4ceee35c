import { api } from '@/lib/api-client';

/** POST /api/banner/delete {id} -> {status: 'OK'}. */
export function deleteBanner(id: number) {
  return api('banner/delete', { id });
}
