import { QueryClient } from '@tanstack/react-query';
import { ApiError } from './api-client';

/** Client errors (4xx) and offline are answers, not hiccups: retrying them changes nothing. */
function shouldRetry(failureCount: number, error: unknown): boolean {
  if (error instanceof ApiError && (error.offline || (error.status >= 400 && error.status < 500)))
    return false;
  return failureCount < 2;
}

export const queryClient = new QueryClient({
  defaultOptions: {
    queries: { staleTime: 30_000, retry: shouldRetry, refetchOnWindowFocus: false },
    // The api client itself refuses to call while offline, with the message to show.
    mutations: { retry: false, networkMode: 'always' },
  },
});
