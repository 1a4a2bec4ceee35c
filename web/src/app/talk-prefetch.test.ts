import { afterEach, describe, expect, it, vi } from 'vitest';
import { resolveRoutes, type AppMatch, type AppRoute } from './navigation';
import { talkPrefetchRuns } from './router';

/** One talk route whose loader counts its runs, as the app's talk routes are made. */
function talkRoute() {
  const runs: string[] = [];
  const routes: AppRoute[] = [
    {
      path: '/talk/:id',
      loader: ({ params }) => {
        runs.push(params.id ?? '');
        return null;
      },
      shouldRevalidate: talkPrefetchRuns,
    },
  ];
  return { routes, runs };
}

/**
 * The prefetch in fresh modules (nothing asked for yet, whatever ran before), the talk's own calls answered
 * empty, and `as(role)` to log in.
 */
async function freshPrefetch() {
  vi.resetModules();
  vi.stubGlobal(
    'fetch',
    vi.fn(async () => new Response('{}', { status: 200 })),
  );
  const { prefetchTalk } = await import('./prefetch-talk');
  const { setSession } = await import('@/lib/session');
  const { clearLocalState } = await import('@/lib/local-state');
  const as = (role: number) => setSession({ uid: 1, role, rank: 0, name: '山田', session: 's', image: null });
  return { prefetchTalk, as, clearLocalState };
}

describe("a talk's prefetch (product.md §2.7)", () => {
  afterEach(() => vi.unstubAllGlobals());

  it('runs once for a talk, not again when only the message to show (?m=) changes, and again for another talk', async () => {
    const { routes, runs } = talkRoute();
    const matches = async (path: string, previous?: AppMatch[]) => {
      const resolved = await resolveRoutes(routes, path, previous);
      if (!('matches' in resolved)) throw new Error('no redirect expected');
      return resolved.matches;
    };
    const first = await matches('/talk/1');
    expect(runs).toEqual(['1']);
    // The router resolves the pathname alone: ?m= leaves the talk's params as they were.
    const same = await matches('/talk/1', first);
    expect(runs).toEqual(['1']);
    await matches('/talk/2', same);
    expect(runs).toEqual(['1', '2']);
  });

  it("asks with the talk for its words' phrase table: a member's, a staff member's, none without a session", async () => {
    const { prefetchTalk, as, clearLocalState } = await freshPrefetch();
    const { phraseBreaksAsked } = await import('@/lib/phrase-breaks');
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

  it("loads the desk's auto-reply rule with a member's talk with the staff only", async () => {
    const { prefetchTalk, as, clearLocalState } = await freshPrefetch();
    const { autoReplyRuleAsked } = await import('@/features/talk/utils/auto-reply-rule');
    as(3);
    prefetchTalk('1', true); // a staff member opening a talk with the staff: no auto-reply for them
    as(101);
    prefetchTalk('2'); // a member's group talk
    expect(autoReplyRuleAsked()).toBe(false);
    prefetchTalk('3', true);
    expect(autoReplyRuleAsked()).toBe(true);
    clearLocalState();
  });
});
