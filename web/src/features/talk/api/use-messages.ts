import { useInfiniteQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { forgetEarlyPage, messagesQueryOptions } from './get-messages';

/**
 * A talk's pages for its screen. Apart from get-messages.ts, which a member's first load carries (the talk's
 * loader starts the read): the infinite query's observer loads with the talk screen, not with the home.
 */
export function useMessages(conversationId: number) {
  const pages = useInfiniteQuery(messagesQueryOptions(conversationId));
  // After the query's own subscription (which may still read the early page), in the order declared.
  useEffect(() => forgetEarlyPage(conversationId), [conversationId]);
  return pages;
}
