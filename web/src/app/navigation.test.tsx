// @vitest-environment jsdom
import { act, cleanup, render, screen } from '@testing-library/react';
import { Link, Outlet } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi, type MockInstance } from 'vitest';
import {
  AppRouter,
  createAppRouter,
  useNavigating,
  type AppRoute,
  type AppRouterInstance,
} from './navigation';
import { useRouteMatches } from '@/lib/route-matches';
import { redirect } from './redirect';

/** A promise the test settles when it wants: a loader still on its way. */
function deferred() {
  let settle!: () => void;
  const promise = new Promise<void>((resolve) => {
    settle = resolve;
  });
  return { promise, settle };
}

const Screen = ({ name }: { name: string }) => <p>{name}</p>;
function Layout() {
  const titles = useRouteMatches().map((match) => (match.handle as { title?: string } | undefined)?.title);
  return (
    <>
      {useNavigating() ? <div role="progressbar" /> : null}
      <h1>{titles.filter(Boolean).join(' / ')}</h1>
      <Link to="/slow">slow</Link>
      <Outlet />
    </>
  );
}
const ErrorScreen = ({ error }: { error: unknown }) => <p role="alert">{String(error)}</p>;

let slow = deferred();
const runs: string[] = [];
const routes: AppRoute[] = [
  {
    path: '/',
    Component: Layout,
    children: [
      { index: true, handle: { title: 'home' }, Component: () => <Screen name="home page" /> },
      {
        path: 'a',
        handle: { title: 'a' },
        loader: () => void runs.push('a'),
        lazy: async () => ({ Component: () => <Screen name="page a" /> }),
      },
      { path: 'b', loader: () => void runs.push('b'), Component: () => <Screen name="page b" /> },
      {
        path: 'slow',
        loader: () => slow.promise,
        Component: () => <Screen name="slow page" />,
      },
      {
        path: 'staff',
        loader: () => {
          throw redirect('/');
        },
        Component: () => <Screen name="staff only" />,
      },
      {
        path: 'broken',
        lazy: () => Promise.reject(new Error('chunk failed')),
      },
    ],
  },
];

let router: AppRouterInstance | undefined;
const start = async (path: string) => {
  window.history.replaceState(null, '', path);
  router = createAppRouter(routes);
  await router.ready;
  return router;
};
/** Resolves when the router has shown `pathname`. */
const shown = (router: AppRouterInstance, pathname: string) =>
  new Promise<void>((resolve) => {
    if (router.state.location.pathname === pathname) return resolve();
    const stop = router.subscribe(({ state, pending }) => {
      if (pending || state.location.pathname !== pathname) return;
      stop();
      resolve();
    });
  });

// jsdom does not scroll: the test watches where the router asks the window to scroll.
let scrollTo: MockInstance<typeof window.scrollTo>;
beforeEach(() => {
  slow = deferred();
  runs.length = 0;
  scrollTo = vi.spyOn(window, 'scrollTo').mockImplementation(() => undefined);
});
afterEach(() => {
  cleanup();
  router?.dispose();
  scrollTo.mockRestore();
});

describe('the app router (product.md §2.7)', () => {
  it('opens at the address the app started at, its loaders run and its screen loaded', async () => {
    const router = await start('/a');
    expect(runs).toEqual(['a']);
    render(<AppRouter router={router} errorScreen={ErrorScreen} />);
    expect(screen.getByText('page a')).toBeTruthy();
    expect(screen.getByRole('heading').textContent).toBe('a');
  });

  it("follows a guard's redirect before anything is drawn, at the start and on a navigation", async () => {
    const router = await start('/staff');
    expect(router.state.location.pathname).toBe('/');
    expect(window.location.pathname).toBe('/');
    render(<AppRouter router={router} errorScreen={ErrorScreen} />);
    await act(() => router.navigate('/staff'));
    expect(window.location.pathname).toBe('/');
    expect(screen.getByText('home page')).toBeTruthy();
    expect(screen.queryByText('staff only')).toBeNull();
  });

  it('keeps the old screen and address, with the progress line, until the next screen is ready', async () => {
    const router = await start('/');
    render(<AppRouter router={router} errorScreen={ErrorScreen} />);
    act(() => screen.getByRole('link', { name: 'slow' }).click());
    expect(await screen.findByRole('progressbar')).toBeTruthy();
    expect(window.location.pathname).toBe('/');
    expect(screen.getByText('home page')).toBeTruthy();
    slow.settle();
    expect(await screen.findByText('slow page')).toBeTruthy();
    expect(window.location.pathname).toBe('/slow');
    expect(screen.queryByRole('progressbar')).toBeNull();
  });

  it('lets a newer navigation win over one still loading', async () => {
    const router = await start('/');
    const older = router.navigate('/slow');
    await router.navigate('/b');
    slow.settle();
    await older;
    expect(router.state.location.pathname).toBe('/b');
    expect(window.location.pathname).toBe('/b');
  });

  it('takes a navigation asked for before the first screen resolved (a session turned down at once)', async () => {
    window.history.replaceState(null, '', '/slow');
    router = createAppRouter(routes);
    void router.navigate('/b', { replace: true });
    await router.ready;
    expect(router.state.location.pathname).toBe('/b');
    slow.settle();
    await Promise.resolve();
    expect(router.state.location.pathname).toBe('/b');
    expect(window.location.pathname).toBe('/b');
  });

  it('runs the loaders of the page the back button returns to, and puts back its scroll position', async () => {
    const router = await start('/a');
    render(<AppRouter router={router} errorScreen={ErrorScreen} />);
    Object.defineProperty(window, 'scrollY', { value: 640, configurable: true });
    await act(() => router.navigate('/b'));
    expect(scrollTo).toHaveBeenLastCalledWith(0, 0);
    Object.defineProperty(window, 'scrollY', { value: 0, configurable: true });
    window.history.back();
    await act(() => shown(router, '/a'));
    expect(runs).toEqual(['a', 'b', 'a']);
    expect(await screen.findByText('page a')).toBeTruthy();
    expect(scrollTo).toHaveBeenLastCalledWith(0, 640);
  });

  it("shows the error screen when a screen's chunk fails, and leaves it on the next navigation", async () => {
    const router = await start('/broken');
    render(<AppRouter router={router} errorScreen={ErrorScreen} />);
    expect(screen.getByRole('alert').textContent).toContain('chunk failed');
    await act(() => router.navigate('/b'));
    expect(screen.queryByRole('alert')).toBeNull();
    expect(screen.getByText('page b')).toBeTruthy();
  });
});
