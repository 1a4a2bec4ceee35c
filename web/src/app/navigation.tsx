import {
  Component,
  createContext,
  startTransition,
  use,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
  type ComponentType,
  type ReactNode,
} from 'react';
import {
  matchRoutes,
  NavigationType,
  parsePath,
  renderMatches,
  Router,
  UNSAFE_createBrowserHistory as createBrowserHistory,
  type Location,
  type Navigator,
  type Params,
  type RouteMatch,
  type RouteObject,
  type To,
} from 'react-router';
import { RouteMatchesContext } from '@/lib/route-matches';
import { Redirect } from './redirect';

/*
 * The app's navigation (product.md §2.7): react-router's declarative parts (matching, rendering, links and
 * hooks) with the app's own small loading step in place of its data router, whose 17 kB a member's phone
 * would otherwise load before the first screen. A navigation runs its routes' loaders (guards, prefetches) and
 * loads their screens' chunks, all at once; only then does the address change and the new screen draw (as a
 * transition: the old screen stays until the new one is ready). A guard's Redirect sends the user elsewhere
 * before anything is drawn or recorded in the history.
 */

/** A route of the app's table. */
export type AppRoute = {
  id?: string;
  path?: string;
  index?: boolean;
  /** What the layouts read off the matched routes (useRouteMatches): titles, fill or wide screens. */
  handle?: unknown;
  Component?: ComponentType;
  /** The screen's chunk, loaded the first time the route matches. */
  lazy?: () => Promise<{ Component: ComponentType }>;
  /** Runs before the route draws: a guard or a prefetch. Throwing a Redirect sends the user elsewhere. */
  loader?: (args: { params: Params }) => unknown;
  /** Whether the loader runs again while its route stays matched; without this, it runs on every navigation. */
  shouldRevalidate?: (current: Params, next: Params) => boolean;
  children?: AppRoute[];
};

export type AppMatch = { route: AppRoute; params: Params; pathname: string };

/** What a navigation came to: the matched routes, ready to draw, or the error that stopped it. */
export type Resolved = { matches: AppMatch[]; error?: unknown };

export type RouterState = Resolved & { location: Location; action: NavigationType };

const matchAppRoutes = (routes: AppRoute[], pathname: string): AppMatch[] =>
  (matchRoutes(routes as unknown as RouteObject[], pathname) ?? []) as unknown as AppMatch[];

async function loadScreen(route: AppRoute): Promise<void> {
  if (!route.lazy) return;
  const { Component } = await route.lazy();
  Object.assign(route, { Component, lazy: undefined });
}

/**
 * Runs the loaders of the routes matching `pathname` and loads their screens, all at once. A Redirect from any
 * of them wins (a guard's answer matters more than a screen that failed to load); else the first error.
 */
export async function resolveRoutes(
  routes: AppRoute[],
  pathname: string,
  previous: AppMatch[] = [],
): Promise<Resolved | Redirect> {
  const matches = matchAppRoutes(routes, pathname);
  const outcomes = await Promise.allSettled(
    matches.map(async ({ route, params }) => {
      const before = previous.find((match) => match.route === route);
      const runs = !before || !route.shouldRevalidate || route.shouldRevalidate(before.params, params);
      await Promise.all([runs ? route.loader?.({ params }) : null, loadScreen(route)]);
    }),
  );
  const failures = outcomes.flatMap((outcome) =>
    outcome.status === 'rejected' ? [outcome.reason as unknown] : [],
  );
  const redirect = failures.find((failure) => failure instanceof Redirect);
  if (redirect) return redirect;
  return failures.length > 0 ? { matches, error: failures[0] } : { matches };
}

/** Enough for any real chain of guards (the member area's, then a role's); more is a loop. */
const MAX_REDIRECTS = 10;

type RouterEvent = { state: RouterState; pending: boolean };

export type AppRouterInstance = {
  /** Settles once the first screen is resolved; `state` is there from then on. */
  readonly ready: Promise<void>;
  readonly state: RouterState;
  readonly navigator: Navigator;
  navigate(to: To, options?: { replace?: boolean }): Promise<void>;
  /** Calls `listener` on every change; at once (as a microtask) if the state is already newer than `seen`. */
  subscribe(listener: (event: RouterEvent) => void, seen?: RouterState): () => void;
  /** Where the page was scrolled when the user left `key` (restored when they come back to it). */
  scrollPosition(key: string): number | undefined;
  /** Stops following the back and forward buttons (a test's router). */
  dispose(): void;
};

/**
 * The browser's router. It starts resolving the address the app opened at; `ready` settles once the first
 * screen is resolved (whichever navigation got there: one may already have sent the user elsewhere).
 */
export function createAppRouter(routes: AppRoute[]): AppRouterInstance {
  const history = createBrowserHistory();
  const listeners = new Set<(event: RouterEvent) => void>();
  const scroll = new Map<string, number>();
  let current: RouterState | null = null;
  let navigation = 0;
  let resolveReady!: () => void;
  const ready = new Promise<void>((resolve) => {
    resolveReady = resolve;
  });
  const emit = (event: RouterEvent) => listeners.forEach((listener) => listener(event));

  const commit = (next: RouterState) => {
    if (current) scroll.set(current.location.key, window.scrollY);
    current = next;
    resolveReady();
    emit({ state: next, pending: false });
  };

  async function go(action: NavigationType, to: To, state?: unknown, redirects = 0): Promise<void> {
    const id = ++navigation;
    if (current) emit({ state: current, pending: true });
    const path = typeof to === 'string' ? parsePath(to) : to;
    const outcome = await resolveRoutes(
      routes,
      path.pathname ?? current?.location.pathname ?? '/',
      current?.matches,
    );
    // A later navigation took over (a second tap, the back button).
    if (id !== navigation) return;
    if (outcome instanceof Redirect && redirects < MAX_REDIRECTS) {
      // The address the user went back or forward to is replaced, as is a first address.
      const next = action === NavigationType.Pop ? NavigationType.Replace : action;
      return go(next, outcome.to, undefined, redirects + 1);
    }
    if (action === NavigationType.Push) history.push(to, state);
    if (action === NavigationType.Replace) history.replace(to, state);
    const resolved =
      outcome instanceof Redirect
        ? { matches: [], error: new Error(`redirect loop at ${outcome.to}`) }
        : outcome;
    commit({ ...resolved, location: history.location, action });
  }

  const unlisten = history.listen(({ location }) => void go(NavigationType.Pop, location, location.state));
  void go(NavigationType.Pop, history.location, history.location.state);

  return {
    ready,
    get state() {
      if (!current) throw new Error('the router has not resolved its first address');
      return current;
    },
    navigator: {
      createHref: (to) => history.createHref(to),
      encodeLocation: (to) => history.encodeLocation(to),
      go: (delta) => history.go(delta),
      push: (to, state) => void go(NavigationType.Push, to, state),
      replace: (to, state) => void go(NavigationType.Replace, to, state),
    },
    navigate: (to, options) => go(options?.replace ? NavigationType.Replace : NavigationType.Push, to),
    subscribe(listener, seen) {
      listeners.add(listener);
      const state = current;
      if (seen && state && state !== seen)
        queueMicrotask(() => listeners.has(listener) && listener({ state, pending: false }));
      return () => listeners.delete(listener);
    },
    scrollPosition: (key) => scroll.get(key),
    dispose: unlisten,
  };
}

const PendingContext = createContext(false);
/** True while a navigation loads its screen (the progress line). */
export const useNavigating = (): boolean => use(PendingContext);

type ErrorScreen = ComponentType<{ error: unknown }>;

/** A screen that throws while drawing shows the error screen, until the user goes elsewhere. */
class ScreenErrorBoundary extends Component<
  { at: string; fallback: ErrorScreen; children: ReactNode },
  { error: unknown; at: string }
> {
  override state = { error: null as unknown, at: this.props.at };

  static getDerivedStateFromError(error: unknown) {
    return { error };
  }

  static getDerivedStateFromProps(props: { at: string }, state: { error: unknown; at: string }) {
    return props.at === state.at ? null : { error: null, at: props.at };
  }

  override render() {
    const Fallback = this.props.fallback;
    return this.state.error ? <Fallback error={this.state.error} /> : this.props.children;
  }
}

/** The screen for a resolved address: the same on the server's prerender and in the browser. */
export function RouteView({
  state,
  navigator,
  pending = false,
  errorScreen: ErrorScreen,
}: {
  state: RouterState;
  navigator: Navigator;
  pending?: boolean;
  errorScreen: ErrorScreen;
}) {
  const matches = useMemo(
    () => state.matches.map(({ pathname, params, route }) => ({ pathname, params, handle: route.handle })),
    [state.matches],
  );
  return (
    <Router location={state.location} navigationType={state.action} navigator={navigator}>
      <PendingContext value={pending}>
        <RouteMatchesContext value={matches}>
          <ScreenErrorBoundary at={state.location.key} fallback={ErrorScreen}>
            {state.error ? (
              <ErrorScreen error={state.error} />
            ) : (
              renderMatches(state.matches as unknown as RouteMatch[])
            )}
          </ScreenErrorBoundary>
        </RouteMatchesContext>
      </PendingContext>
    </Router>
  );
}

/** The browser's screen: follows the router, and scrolls as a browser would between pages. */
export function AppRouter({ router, errorScreen }: { router: AppRouterInstance; errorScreen: ErrorScreen }) {
  // What the first render showed: a navigation that ended before the subscription below comes at once.
  const [first] = useState(router.state);
  const [state, setState] = useState(first);
  const [pending, setPending] = useState(false);
  useLayoutEffect(
    () =>
      router.subscribe((event) => {
        if (event.pending) setPending(true);
        // As a transition: a long screen yields to the browser while it draws, and the old one stays till then.
        else
          startTransition(() => {
            setState(event.state);
            setPending(false);
          });
      }, first),
    [router, first],
  );

  const shown = useRef<string | null>(null);
  useLayoutEffect(() => {
    window.history.scrollRestoration = 'manual';
    // The first screen is where the browser opened it.
    if (shown.current === null || shown.current === state.location.key) {
      shown.current = state.location.key;
      return;
    }
    shown.current = state.location.key;
    const saved = state.action === NavigationType.Pop ? router.scrollPosition(state.location.key) : undefined;
    const target = state.location.hash
      ? document.getElementById(decodeURIComponent(state.location.hash.slice(1)))
      : null;
    if (saved !== undefined) window.scrollTo(0, saved);
    else if (target) target.scrollIntoView();
    else window.scrollTo(0, 0);
  }, [router, state]);

  return <RouteView state={state} navigator={router.navigator} pending={pending} errorScreen={errorScreen} />;
}
