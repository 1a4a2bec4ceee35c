import { createMemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
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
});
