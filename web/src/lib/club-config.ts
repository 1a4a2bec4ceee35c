import { useQuery } from '@tanstack/react-query';
import { api } from './api-client';

/** POST /api/config -> what the club configured: member-site links of the mypage menu, course images. */
export function getClubConfig() {
  return api('config', {});
}

/** Configuration changes only with a server restart: one read per visit is plenty. */
export function useClubConfig() {
  return useQuery({ queryKey: ['club-config'], queryFn: getClubConfig, staleTime: Infinity });
}
