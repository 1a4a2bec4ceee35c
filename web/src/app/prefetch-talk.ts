import { conversationQueryOptions } from '@/features/talk/api/get-conversation';
import { messagesQueryOptions, prefetchNewestPage, readKeptPages } from '@/features/talk/api/get-messages';
import { loadAutoReplyRule } from '@/features/talk/utils/auto-reply-rule';
import { takeLastScreen } from '@/lib/last-screen';
import { queryClient } from '@/lib/query-client';
import { preloadPhraseBreaks } from '@/lib/phrase-breaks';
import { getSession } from '@/lib/session';
import { can } from '@enishi/contract';

/**
 * A talk route's loader: the talk's row and newest page are asked for at once, while the screen's chunk is
 * still on its way (the screen's queries then find them), instead of after it arrived. So is the phrase table
 * of its words (an empty talk's note, the auto-reply): the first drawing has their breaks rather than drawing
 * them again a round trip later, and, in a member's talk with the staff (`deskTalk`), the desk's auto-reply
 * rule. Waits for none of them, unless the app opened over the talk's kept screen (product.md §15.6): its first
 * drawing then waits for the copy on the device, and takes the kept screen's place without a blank between.
 */
export function prefetchTalk(id: string | undefined, deskTalk = false): null | Promise<null> {
  const session = getSession();
  if (!session || !/^\d{1,15}$/.test(id ?? '')) return null;
  const staff = can(session, 'desk.use');
  preloadPhraseBreaks(staff ? 'staff' : 'member');
  if (deskTalk && !staff) loadAutoReplyRule().catch(() => undefined); // the talk asks again
  const conversationId = Number(id);
  void queryClient.prefetchQuery(conversationQueryOptions(conversationId));
  void prefetchNewestPage(conversationId);
  // A warm open: the copy kept on the device is drawn while the server's page is on its way; a screen already
  // up without pages shows it (the query's read, already started, then puts the server's in its place).
  const drawn = readKeptPages(session.uid, conversationId).then((kept) => {
    const { queryKey } = messagesQueryOptions(conversationId);
    const query = queryClient.getQueryCache().find({ queryKey, exact: true });
    if (kept && query && query.state.data === undefined) queryClient.setQueryData(queryKey, kept);
    return null;
  });
  return takeLastScreen() ? drawn : null;
}
