import { ja } from '@enishi/contract';
import { StrictMode } from 'react';
import { renderToString } from 'react-dom/server';
import {
  createStaticHandler,
  createStaticRouter,
  StaticRouterProvider,
  type HydrationState,
} from 'react-router';
import { AppLoading } from './app-loading';
import { AppProvider } from './provider';
import type { PrerenderedPath } from './prerendered-paths';
import { routes } from './router';

/*
 * Build time only (scripts/prerender.ts loads this in Node): a public page rendered to HTML with the app's own
 * route table, inside the same providers as in the browser, so hydration finds the same markup (product.md
 * §2.7). Never part of the browser bundle.
 */

/** The tab title each page sets once it runs (Page's `| 縁 Enishi` convention; /enter the name alone). */
const titles: Record<PrerenderedPath, string> = {
  '/enter': ja.app.name,
  '/login': `${ja.login.title} | ${ja.app.name}`,
  '/intro/male': `${ja.intro.maleTitle} | ${ja.app.name}`,
  '/intro/female': `${ja.intro.femaleTitle} | ${ja.app.name}`,
};

export type Prerendered = { html: string; title: string; hydration: HydrationState };

export async function render(path: PrerenderedPath): Promise<Prerendered> {
  const handler = createStaticHandler(routes);
  const context = await handler.query(new Request(new URL(path, 'http://localhost')));
  if (context instanceof Response) throw new Error(`${path} answers ${context.status} instead of a page`);
  if (context.errors) throw new Error(`${path} failed to render: ${JSON.stringify(context.errors)}`);
  const router = createStaticRouter(handler.dataRoutes, context);
  const html = renderToString(
    <StrictMode>
      <AppProvider>
        <StaticRouterProvider router={router} context={context} hydrate={false} />
      </AppProvider>
    </StrictMode>,
  );
  return { html, title: titles[path], hydration: { loaderData: context.loaderData } };
}

/**
 * index.html's content (every path but the public pages: the member area): the loading screen the app draws
 * first anyway, so it paints before any script runs; the app replaces it (createRoot, not hydration).
 */
export function renderShell(): string {
  return renderToString(<AppLoading />);
}
