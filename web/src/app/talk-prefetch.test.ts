import { createMemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { talkPrefetchRuns } from './router';

/** A router with one talk route whose loader counts its runs, as the app's talk routes are made. */
function talkRouter() {
  const runs: string[] = [];
  const router = createMemoryRouter(
    [
      {
        path: '/talk/:id',
        loader: ({ params }) => {
          runs.push(params.id ?? '');
          return null;
        },
        shouldRevalidate: talkPrefetchRuns,
      },
    ],
    { initialEntries: ['/talk/1'] },
  );
  return { router, runs };
}

describe("a talk's prefetch (product.md §2.7)", () => {
  afterEach(() => vi.unstubAllGlobals());

  it('runs once for a talk, not again when only the message to show (?m=) changes, and again for another talk', async () => {
    const { router, runs } = talkRouter();
    // createMemoryRouter starts the first load by itself.
    await new Promise<void>((resolve) => {
      if (router.state.initialized) resolve();
      else router.subscribe((state) => state.initialized && resolve());
    });
    expect(runs).toEqual(['1']);
    await router.navigate('/talk/1?m=42');
    expect(router.state.location.search).toBe('?m=42');
    expect(runs).toEqual(['1']);
    await router.navigate('/talk/2');
    expect(runs).toEqual(['1', '2']);
    router.dispose();
  });

  it("asks with the talk for its words' phrase table: a member's, a staff member's, none without a session", async () => {
    // Fresh modules: no table asked for yet, whatever ran before. The talk's own calls get empty answers.
    vi.resetModules();
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response('{}', { status: 200 })),
    );
    const { prefetchTalk } = await import('./prefetch-talk');
    const { phraseBreaksAsked } = await import('@/lib/phrase-breaks');
    const { setSession } = await import('@/lib/session');
    const { clearLocalState } = await import('@/lib/local-state');
    const as = (role: number) =>
      setSession({ uid: 1, role, rank: 0, name: '山田', session: 's', image: null });
    prefetchTalk('1');
    expect(phraseBreaksAsked('member')).toBe(false);
    as(101);
    prefetchTalk('1');
    expect(phraseBreaksAsked('member')).toBe(true);
    expect(phraseBreaksAsked('staff')).toBe(false);
    as(3);
    prefetchTalk('2');
    expect(phraseBreaksAsked('staff')).toBe(true);
    clearLocalState();
  });
});
