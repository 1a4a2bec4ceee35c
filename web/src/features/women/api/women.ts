import type { EntryQueryInput, LookupItem } from '@enishi/contract';
import {
  infiniteQueryOptions,
  useInfiniteQuery,
  useMutation,
  useQuery,
  useQueryClient,
  type InfiniteData,
} from '@tanstack/react-query';
import { api } from '@/lib/api-client';

export const WOMEN_PER_PAGE = 20;
export const womenQueryKey = ['entrylist'] as const;

/** POST /api/entrylist: one page of the women the site shows this man, by the filters (product.md §19.2). */
export const womenQueryOptions = (query: EntryQueryInput) =>
  infiniteQueryOptions({
    queryKey: [...womenQueryKey, query],
    queryFn: ({ pageParam }) => api('entrylist', { page: pageParam, perPage: WOMEN_PER_PAGE, query }),
    initialPageParam: 0,
    getNextPageParam: (last, pages) => (last.isEnd ? undefined : pages.length),
    staleTime: 30_000,
  });

export function useWomen(query: EntryQueryInput) {
  return useInfiniteQuery(womenQueryOptions(query));
}

/** POST /api/entrydetail: one woman's public profile (product.md §19.3). */
export function useWoman(id: number) {
  return useQuery({
    queryKey: ['entrydetail', id],
    queryFn: () => api('entrydetail', { id }),
    staleTime: 30_000,
  });
}

/**
 * The club's companies from POST /api/lookups (the owner's list, product.md §19.1), for the club filter; the
 * same cache entry as the member screens' code tables.
 */
export function useCompanies(): readonly LookupItem[] {
  const lookups = useQuery({
    queryKey: ['lookups'],
    queryFn: () => api('lookups', {}),
    staleTime: 10 * 60 * 1000,
  });
  return lookups.data?.companies ?? [];
}

type WomenPages = InfiniteData<Awaited<ReturnType<typeof api<'entrylist'>>>>;

/**
 * POST /api/member/updateFavorite: the star. The lists and the profile show the new state at once and are
 * read again afterwards (the favourites tab gains or loses her).
 */
export function useFavorite() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, on }: { id: number; on: boolean }) =>
      api('member/updateFavorite', { data: { id, flg: on ? 1 : 0 } }),
    onMutate: ({ id, on }) => {
      queryClient.setQueriesData<WomenPages>({ queryKey: womenQueryKey }, (data) =>
        data
          ? {
              ...data,
              pages: data.pages.map((page) => ({
                ...page,
                rows: page.rows.map((row) => (row.id === id ? { ...row, favorite: on } : row)),
              })),
            }
          : data,
      );
      queryClient.setQueryData<Awaited<ReturnType<typeof api<'entrydetail'>>>>(['entrydetail', id], (data) =>
        data ? { ...data, favorite: on } : data,
      );
    },
    onSettled: (_result, _error, { id }) => {
      void queryClient.invalidateQueries({ queryKey: womenQueryKey });
      void queryClient.invalidateQueries({ queryKey: ['entrydetail', id] });
    },
  });
}
