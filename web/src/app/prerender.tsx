import { ja, jaIntro } from '@enishi/contract';
import { StrictMode } from 'react';
import { renderToString } from 'react-dom/server';
import { createPath, NavigationType, type Navigator } from 'react-router';
import { AppLoading } from './app-loading';
import type { Prerendering } from './hydration';
import { resolveRoutes, RouteView } from './navigation';
import { AppProvider } from './provider';
import type { PrerenderedPath } from './prerendered-paths';
import { Redirect } from './redirect';
import { RouteError } from './route-error';
import { routes } from './router';

/*
 * Build time only (scripts/prerender.ts loads this in Node): a public page rendered to HTML with the app's own
 * route table and route view, inside the same providers as in the browser, so hydration finds the same markup
 * (product.md §2.7). Never part of the browser bundle.
 */

/** The tab title each page sets once it runs (Page's `| 縁 Enishi` convention; /enter the name alone). */
const titles: Record<PrerenderedPath, string> = {
  '/enter': ja.app.name,
  '/login': `${ja.login.title} | ${ja.app.name}`,
  '/intro/male': `${jaIntro.maleTitle} | ${ja.app.name}`,
  '/intro/female': `${jaIntro.femaleTitle} | ${ja.app.name}`,
};

export type Prerendered = { html: string; title: string; hydration: Prerendering };

/** Links render their addresses; nothing navigates while a page is rendered to a string. */
const unused = () => {
  throw new Error('a prerendered page cannot navigate');
};
const staticNavigator: Navigator = {
  createHref: (to) => (typeof to === 'string' ? to : createPath(to)),
  go: unused,
  push: unused,
  replace: unused,
};

export async function render(path: PrerenderedPath): Promise<Prerendered> {
  const resolved = await resolveRoutes(routes, path);
  if (resolved instanceof Redirect)
    throw new Error(`${path} sends to ${resolved.to} instead of being a page`);
  if (resolved.error) throw new Error(`${path} failed to load: ${String(resolved.error)}`);
  const state = {
    ...resolved,
    location: { pathname: path, search: '', hash: '', state: null, key: 'default' },
    action: NavigationType.Pop,
  };
  const html = renderToString(
    <StrictMode>
      <AppProvider>
        <RouteView state={state} navigator={staticNavigator} errorScreen={RouteError} />
      </AppProvider>
    </StrictMode>,
  );
  return { html, title: titles[path], hydration: { path } };
}

/**
 * index.html's content (every path but the public pages: the member area): the loading screen the app draws
 * first anyway, so it paints before any script runs; the app replaces it (createRoot, not hydration).
 */
export function renderShell(): string {
  return renderToString(<AppLoading />);
}
