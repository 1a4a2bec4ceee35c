import type { ConversationRow, MessagesReply } from '@enishi/contract';
import { useEffect, useRef } from 'react';
import { saveTalk } from '@/lib/chat/history';
import { getSession } from '@/lib/session';
import { historyPage } from '../utils/history-page';

/** A talk changing many times in a moment (a catch-up) is saved once, this long after the last change. */
const SAVE_AFTER_MS = 500;

/**
 * While a talk is open, its newest messages are kept on the device to be read offline (product.md §15.6). A
 * change not yet saved when the talk closes or the page goes away (a reload) is saved then, so the copy drawn
 * at the next open is the talk as last shown (a message taken back just before stays taken back), unless the
 * user has logged out meanwhile.
 */
export function useKeepHistory(
  uid: number,
  conversationId: number,
  row: ConversationRow | undefined,
  pages: readonly MessagesReply[] | undefined,
): void {
  const pending = useRef<(() => void) | null>(null);
  useEffect(() => {
    if (!pages || pages.length === 0) return;
    const save = () => {
      pending.current = null;
      if (getSession()?.uid !== uid) return;
      void saveTalk({ uid, conversation_id: conversationId, row: row ?? null, page: historyPage(pages) });
    };
    pending.current = save;
    const timer = setTimeout(save, SAVE_AFTER_MS);
    return () => clearTimeout(timer);
  }, [uid, conversationId, row, pages]);
  useEffect(() => {
    const saveNow = () => pending.current?.();
    addEventListener('pagehide', saveNow);
    return () => {
      removeEventListener('pagehide', saveNow);
      saveNow();
    };
  }, []);
}
