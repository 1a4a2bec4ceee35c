import type { ContentGroup } from '@enishi/contract';
import { useCallback } from 'react';
import { updateLocalState, useLocalState } from '@/lib/local-state';
import { draftKey } from '../utils/target';

const NONE: number[] = [];

/**
 * The bulk-send draft of one target: the chosen members and the text, kept in local state so that both
 * survive a reload and going back and forth between the two screens (product.md §3 drafts).
 */
export function useBroadcastDraft(group: ContentGroup) {
  const key = draftKey(group);
  const text = useLocalState((state) => state.drafts[key] ?? '');
  const selected = useLocalState((state) => state.recipients[key] ?? NONE);

  const setText = useCallback(
    (next: string) =>
      updateLocalState((state) => {
        if (!state.session || (state.drafts[key] ?? '') === next) return state;
        const drafts = { ...state.drafts };
        if (next) drafts[key] = next;
        else delete drafts[key];
        return { ...state, drafts };
      }),
    [key],
  );

  const setSelected = useCallback(
    (update: (current: number[]) => number[]) =>
      updateLocalState((state) => {
        if (!state.session) return state;
        const next = [...new Set(update(state.recipients[key] ?? []))];
        const recipients = { ...state.recipients };
        if (next.length > 0) recipients[key] = next;
        else delete recipients[key];
        return { ...state, recipients };
      }),
    [key],
  );

  /** After a send: the text and the choice are gone. */
  const clear = useCallback(
    () =>
      updateLocalState((state) => {
        const drafts = { ...state.drafts };
        const recipients = { ...state.recipients };
        delete drafts[key];
        delete recipients[key];
        return { ...state, drafts, recipients };
      }),
    [key],
  );

  return { text, setText, selected, setSelected, clear };
}
