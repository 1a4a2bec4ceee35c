import type { MessagesReply } from '@enishi/contract';
import { useEffect, useMemo, useState } from 'react';
import { pendingFor, useOutbox } from '@/lib/chat/outbox';
import { useLocalState } from '@/lib/local-state';
import { useNow } from '@/lib/use-now';
import { useClubCalendar } from '@/lib/use-club-calendar';
import { loadAutoReplyRule, loadedAutoReplyRule, type AutoReplyRule } from '../utils/auto-reply-rule';
import { buildRows, collectMessages, storedClientIds, type ReadMode } from '../utils/timeline';

/**
 * What the talk shows: its messages from the query cache, the announcements not hidden on this device, the
 * outbox entries not yet stored and, for a member in their desk talk (`withAutoReply`), the desk's auto-reply
 * as a note. `readMode`: what shows under one's own messages (既読, 既読 N).
 */
export function useTalkRows(
  conversationId: number,
  pages: readonly MessagesReply[] | undefined,
  { readMode, withAutoReply }: { readMode: ReadMode; withAutoReply: boolean },
) {
  const outbox = useOutbox();
  const hiddenIds = useLocalState((state) => state.hiddenAnnouncements);
  const now = useNow();
  const hidden = useMemo(() => new Set(hiddenIds), [hiddenIds]);
  const { messages, announcements } = useMemo(() => collectMessages(pages ?? [], hidden), [pages, hidden]);
  const pending = useMemo(
    () => pendingFor(outbox, conversationId, storedClientIds(messages)),
    [outbox, conversationId, messages],
  );
  const last = messages.at(-1);
  const autoReplyFor = useAutoReplyRule(withAutoReply);
  const { closing, hours } = useClubCalendar(withAutoReply);
  const autoReply = useMemo(
    () => (autoReplyFor && last ? autoReplyFor(now, last, closing, hours) : null),
    [autoReplyFor, now, last, closing, hours],
  );
  const pinned = useMemo(() => new Set(announcements.map((message) => message.id)), [announcements]);
  const rows = useMemo(
    () => buildRows({ messages, pending, now, readMode, pinned, autoReply }),
    [messages, pending, now, readMode, pinned, autoReply],
  );
  return { rows, announcements, now };
}

/** The auto-reply rule, once loaded (at once when the talk's loader has loaded it); null when not wanted. */
function useAutoReplyRule(wanted: boolean): AutoReplyRule | null {
  const [rule, setRule] = useState<AutoReplyRule | null>(loadedAutoReplyRule);
  useEffect(() => {
    if (!wanted || rule) return;
    let live = true;
    // Not loaded (offline): the talk shows no auto-reply note, as before the rule arrives.
    loadAutoReplyRule().then(
      (loaded) => {
        if (live) setRule(() => loaded);
      },
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [wanted, rule]);
  return wanted ? rule : null;
}
