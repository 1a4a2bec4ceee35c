import type { ConversationRow, MessagesReply } from '@enishi/contract';
import { useEffect } from 'react';
import { saveTalk } from '@/lib/chat/history';
import { historyPage } from '../utils/history-page';

/** A talk changing many times in a moment (a catch-up) is saved once, this long after the last change. */
const SAVE_AFTER_MS = 500;

/** While a talk is open, its newest messages are kept on the device to be read offline (product.md §15.6). */
export function useKeepHistory(
  uid: number,
  conversationId: number,
  row: ConversationRow | undefined,
  pages: readonly MessagesReply[] | undefined,
): void {
  useEffect(() => {
    if (!pages || pages.length === 0) return;
    const timer = setTimeout(() => {
      void saveTalk({ uid, conversation_id: conversationId, row: row ?? null, page: historyPage(pages) });
    }, SAVE_AFTER_MS);
    return () => clearTimeout(timer);
  }, [uid, conversationId, row, pages]);
}
