import { ja, type ConversationRow } from '@enishi/contract';
import { useEffect } from 'react';
import { useNavigate } from 'react-router';
import { ApiError } from '@/lib/api-client';
import { setOpenTalk } from '@/lib/chat/socket';
import { setCounters } from '@/lib/notifications';
import { toast } from '@/lib/toast';

const isNotFound = (error: unknown) => error instanceof ApiError && error.status === 404;

/**
 * The talk on screen is marked read, and stays so while open; leaving tells the server so. The socket tells
 * the server once per opening: it marks the talk read, marks what arrives while it stays open, and sends
 * fresh badge counters after each mark. A talk that does not exist, or is not the user's, sends them home
 * (product.md §8). Returns whether the talk is missing.
 */
export function useOpenTalk({
  conversationId,
  row,
  conversationError,
  messagesError,
}: {
  conversationId: number;
  row: ConversationRow | undefined;
  conversationError: unknown;
  messagesError: unknown;
}): boolean {
  const navigate = useNavigate();
  const missing = isNotFound(conversationError) || isNotFound(messagesError);
  useEffect(() => {
    if (!missing) return;
    toast(ja.talk.notFound);
    void navigate('/', { replace: true });
  }, [missing, navigate]);

  // Once the talk is known to exist (or cannot be checked, offline), so that a missing one is not "opened".
  const rowType = row?.type ?? null;
  const canOpen = row !== undefined || (conversationError != null && !missing);
  useEffect(() => {
    if (canOpen) setOpenTalk({ id: conversationId, type: rowType });
  }, [canOpen, conversationId, rowType]);
  useEffect(() => () => setOpenTalk(null), []);
  // Opening a group talk clears the setting badge (product.md §4) at once; the server's counters agree after the mark.
  useEffect(() => {
    if (rowType === 'st') setCounters({ setting: 0 });
  }, [rowType]);
  return missing;
}
