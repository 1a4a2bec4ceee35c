import { useCallback } from 'react';
import { updateLocalState, useLocalState } from '../local-state';

/** The comment draft of one conversation, kept in local state so that a reload or leaving the talk loses nothing. */
export function useDraft(conversationId: number): [string, (text: string) => void] {
  const key = String(conversationId);
  const draft = useLocalState((state) => state.drafts[key] ?? '');
  const setDraft = useCallback((text: string) => setDraftText(key, text), [key]);
  return [draft, setDraft];
}

function setDraftText(key: string, text: string): void {
  updateLocalState((state) => {
    if (!state.session || (state.drafts[key] ?? '') === text) return state;
    const drafts = { ...state.drafts };
    if (text) drafts[key] = text;
    else delete drafts[key];
    return { ...state, drafts };
  });
}
