import { StrictMode, startTransition } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import type { HydrationState } from 'react-router';
import { App } from '@/app';
import { loadMatchedScreens, prerenderedState } from '@/app/hydration';
import { createAppRouter, routes } from '@/app/router';
import { startServiceWorker } from '@/lib/pwa';
import '@/styles/index.css';

const root = document.getElementById('root');
if (!root) throw new Error('index.html lacks #root');

// A public page comes prerendered (product.md §2.7): the app takes over its HTML. Any other path starts empty.
// The chat socket, badge and push device start with the member area (app/member-services.ts).
const app = (hydrationData?: HydrationState) => (
  <StrictMode>
    <App router={createAppRouter(hydrationData)} />
  </StrictMode>
);
const hydrationData = prerenderedState(root);
if (hydrationData) {
  // If the page's screen cannot be loaded, the app starts afresh (and shows its error screen).
  void loadMatchedScreens(routes, window.location.pathname).then(
    () => hydrateRoot(root, app(hydrationData)),
    () => createRoot(root).render(app()),
  );
} else {
  // As a transition, the first drawing of the member area yields to the browser every few milliseconds instead
  // of holding the main thread for one long task (a phone stays responsive while the app starts).
  startTransition(() => createRoot(root).render(app()));
}

void startServiceWorker();
