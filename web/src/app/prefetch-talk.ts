import { conversationQueryOptions } from '@/features/talk/api/get-conversation';
import { prefetchNewestPage } from '@/features/talk/api/get-messages';
import { queryClient } from '@/lib/query-client';
import { getSession } from '@/lib/session';

/**
 * A talk route's loader: the talk's row and newest page are asked for at once, while the screen's chunk is
 * still on its way (the screen's queries then find them), instead of after it arrived. Waits for neither.
 */
export function prefetchTalk(id: string | undefined): null {
  if (!getSession() || !/^\d{1,15}$/.test(id ?? '')) return null;
  const conversationId = Number(id);
  void queryClient.prefetchQuery(conversationQueryOptions(conversationId));
  prefetchNewestPage(conversationId);
  return null;
}
