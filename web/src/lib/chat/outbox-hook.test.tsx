// @vitest-environment jsdom
import { act, renderHook } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { testEntry as entry } from '@/testing/chat';
import { addEntry, clearOutbox, removeEntry, useOutbox } from './outbox';

describe('useOutbox', () => {
  it('draws the outbox again whenever it changes, and stops listening once unmounted', () => {
    const { result, unmount } = renderHook(() => useOutbox());
    expect(result.current).toEqual([]);
    act(() => addEntry(entry('a')));
    expect(result.current.map((e) => e.client_id)).toEqual(['a']);
    act(() => removeEntry('a'));
    expect(result.current).toEqual([]);
    unmount();
    act(() => addEntry(entry('b')));
    expect(result.current).toEqual([]);
    clearOutbox();
  });
});
