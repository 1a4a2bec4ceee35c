// @vitest-environment jsdom
import type { MessagesReply } from '@enishi/contract';
import { QueryClient, QueryClientProvider, useInfiniteQuery } from '@tanstack/react-query';
import { act, renderHook, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { describe, expect, it } from 'vitest';
import { emitChatEvent } from '@/lib/chat/events';
import { testMessage, testPage } from '@/testing/chat';
import { messagesQueryOptions } from '../api/get-messages';
import { collectMessages } from '../utils/timeline';
import { useLiveMessages } from './use-live-messages';

/** A talk's pages as the screen holds them, each page answered when the test says so. */
function talkWithHeldPages() {
  const asked: { before: number | undefined; answer: (page: MessagesReply) => void }[] = [];
  const client = new QueryClient();
  const wrapper = ({ children }: { children: ReactNode }) => (
    <QueryClientProvider client={client}>{children}</QueryClientProvider>
  );
  const { result } = renderHook(
    () => {
      useLiveMessages(1, () => true);
      return useInfiniteQuery({
        queryKey: messagesQueryOptions(1).queryKey,
        queryFn: ({ pageParam }) =>
          new Promise<MessagesReply>((answer) => asked.push({ before: pageParam, answer })),
        initialPageParam: undefined as number | undefined,
        getNextPageParam: (last) => (last.isEnd ? undefined : 10),
      });
    },
    { wrapper },
  );
  const ids = () => collectMessages(result.current.data?.pages ?? []).messages.map((message) => message.id);
  return { asked, result, ids };
}

describe('useLiveMessages', () => {
  it('keeps a message that arrives while an older page is on its way', async () => {
    const talk = talkWithHeldPages();
    await waitFor(() => expect(talk.asked).toHaveLength(1));
    act(() => talk.asked[0]!.answer(testPage([testMessage(10), testMessage(11)], [], false)));
    await waitFor(() => expect(talk.ids()).toEqual([10, 11]));

    void act(() => void talk.result.current.fetchNextPage());
    await waitFor(() => expect(talk.asked).toHaveLength(2));
    act(() => emitChatEvent('message', { ...testMessage(12), type: 'message' }));
    await waitFor(() => expect(talk.ids()).toContain(12));
    act(() => talk.asked[1]!.answer(testPage([testMessage(8), testMessage(9)])));

    await waitFor(() => expect(talk.result.current.data?.pages).toHaveLength(2));
    expect(talk.ids().sort((a, b) => a - b)).toEqual([8, 9, 10, 11, 12]);
  });
});
