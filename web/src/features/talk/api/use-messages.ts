import { useInfiniteQuery } from '@tanstack/react-query';
import { messagesQueryOptions } from './get-messages';

/**
 * A talk's pages for its screen. Apart from get-messages.ts, which a member's first load carries (the talk's
 * loader starts the read): the infinite query's observer loads with the talk screen, not with the home.
 */
export function useMessages(conversationId: number) {
  return useInfiniteQuery(messagesQueryOptions(conversationId));
}
