import { afterEach, describe, expect, it, vi } from 'vitest';
import { clearLocalState } from '@/lib/local-state';
import { queryClient } from '@/lib/query-client';
import { setSession } from '@/lib/session';
import { prefetchHome } from './prefetch-home';

const member = (role: number) => ({
  uid: 7,
  role,
  rank: 1,
  name: '佐藤 健一',
  session: 'ssid-1',
  image: null,
});

/** The calls the page makes, answered with no banners. */
function recordCalls() {
  const calls: { url: string; body: unknown }[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit) => {
      calls.push({ url, body: JSON.parse(String(init.body)) });
      return new Response(JSON.stringify({ rows: [] }), { status: 200 });
    }),
  );
  return calls;
}

describe("a home's prefetch (product.md §2.7)", () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    queryClient.clear();
    clearLocalState();
  });

  it("asks for the banners of a member's group once, before the screen asks", async () => {
    const calls = recordCalls();
    setSession(member(201));
    prefetchHome();
    prefetchHome(); // again on the next visit: the copy in the cache is still fresh
    await vi.waitFor(() => expect(queryClient.getQueryData(['banners', 2])).toEqual({ rows: [] }));
    expect(calls).toEqual([{ url: '/api/banner/get', body: { ssid: 'ssid-1', type: 2 } }]);
  });

  it('asks nothing for staff, nor without a session', () => {
    const calls = recordCalls();
    prefetchHome();
    setSession(member(3));
    prefetchHome();
    expect(calls).toEqual([]);
  });
});
