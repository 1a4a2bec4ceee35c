import { conversationQueryOptions } from '@/features/talk/api/get-conversation';
import { prefetchNewestPage } from '@/features/talk/api/get-messages';
import { loadAutoReplyRule } from '@/features/talk/utils/auto-reply-rule';
import { queryClient } from '@/lib/query-client';
import { preloadPhraseBreaks } from '@/lib/phrase-breaks';
import { getSession } from '@/lib/session';
import { can } from '@enishi/contract';

/**
 * A talk route's loader: the talk's row and newest page are asked for at once, while the screen's chunk is
 * still on its way (the screen's queries then find them), instead of after it arrived. So is the phrase table
 * of its words (an empty talk's note, the auto-reply): the first drawing has their breaks rather than drawing
 * them again a round trip later, and, in a member's talk with the staff (`deskTalk`), the desk's auto-reply
 * rule. Waits for none of them.
 */
export function prefetchTalk(id: string | undefined, deskTalk = false): null {
  const session = getSession();
  if (!session || !/^\d{1,15}$/.test(id ?? '')) return null;
  const staff = can(session, 'desk.use');
  preloadPhraseBreaks(staff ? 'staff' : 'member');
  if (deskTalk && !staff) loadAutoReplyRule().catch(() => undefined); // the talk asks again
  const conversationId = Number(id);
  void queryClient.prefetchQuery(conversationQueryOptions(conversationId));
  void prefetchNewestPage(conversationId);
  return null;
}
