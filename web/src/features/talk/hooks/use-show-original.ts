import { ja } from '@enishi/contract';
import { useCallback, useLayoutEffect, useRef, type RefObject } from 'react';
import { toast } from '@/lib/toast';
import type { TimelineHandle } from '../components/timeline';

/** Older pages loaded at most to find the message a reply quotes (50 messages each). */
const SEEK_PAGES_MAX = 20;

/**
 * A tapped quote shows its original: from what is loaded, else from older pages (a bounded number). The
 * function returned is stable, so that the timeline's rows need not re-render.
 */
export function useShowOriginal(
  timeline: RefObject<TimelineHandle | null>,
  hasNextPage: boolean,
  fetchNextPage: () => Promise<{ hasNextPage: boolean }>,
): (messageId: number) => void {
  async function showOriginal(messageId: number) {
    let more = hasNextPage;
    for (let pages = 0; ; pages += 1) {
      // Rows from a page just fetched are drawn within a frame or two.
      for (let frame = 0; frame < 3; frame += 1) {
        if (timeline.current?.showMessage(messageId)) return;
        await new Promise((resolve) => requestAnimationFrame(resolve));
      }
      if (!more || pages >= SEEK_PAGES_MAX) break;
      more = (await fetchNextPage()).hasNextPage;
    }
    toast(ja.talk.originalMissing);
  }
  const latest = useRef(showOriginal);
  useLayoutEffect(() => {
    latest.current = showOriginal;
  });
  return useCallback((messageId: number) => void latest.current(messageId), []);
}
