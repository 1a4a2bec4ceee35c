import { useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

/** POST /api/reports: one month's figures (product.md §2.9). */
export function useReport(month: string) {
  return useQuery({ queryKey: ['reports', month], queryFn: () => api('reports', { month }) });
}
