import { StrictMode, startTransition } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { App } from '@/app';
import { prerenderedPath } from '@/app/hydration';
import { createAppRouter } from '@/app/router';
import { linkManifestOnceDrawn, startServiceWorker } from '@/lib/pwa';
import '@/styles/index.css';

const root = document.getElementById('root');
if (!root) throw new Error('index.html lacks #root');

// A public page comes prerendered (product.md §2.7): the app takes over its HTML. Any other path starts afresh,
// over the loading screen index.html paints. The chat socket, badge and push device start with the member area
// (app/member-services.ts).
const prerendered = prerenderedPath(root);
void createAppRouter().then((router) => {
  const app = (
    <StrictMode>
      <App router={router} />
    </StrictMode>
  );
  // Only HTML made for this very address, whose screen loaded: otherwise (its chunk failed, say) the app draws
  // afresh, its error screen included.
  if (prerendered === router.state.location.pathname && !router.state.error) hydrateRoot(root, app);
  // As a transition, the first drawing of the member area yields to the browser every few milliseconds instead
  // of holding the main thread for one long task (a phone stays responsive while the app starts).
  else startTransition(() => createRoot(root).render(app));
});

void startServiceWorker();
linkManifestOnceDrawn(root);
