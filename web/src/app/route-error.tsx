import { ja } from '@enishi/contract';
import { useEffect } from 'react';
import { useLocation } from 'react-router';
import { Button } from '@/components/ui/button';
import { AppLoading, ClubMark } from './app-loading';
import './route-error.css';

/** Messages browsers give when a lazily loaded screen (a chunk of an older build) cannot be fetched. */
const chunkLoadFailure =
  /dynamically imported module|module script failed|Unable to preload CSS|Loading (CSS )?chunk \S+ failed/i;

const isChunkLoadError = (error: unknown): boolean =>
  error instanceof Error && chunkLoadFailure.test(error.message);

const RELOAD_KEY = 'enishi:chunk-reload';
/** A second failure this soon after reloading the same path is not fixed by reloading again. */
const RELOAD_WINDOW_MS = 10_000;

function reloadedRecently(path: string): boolean {
  try {
    const mark = JSON.parse(sessionStorage.getItem(RELOAD_KEY) ?? 'null') as {
      path?: string;
      at?: number;
    } | null;
    return mark?.path === path && typeof mark.at === 'number' && Date.now() - mark.at < RELOAD_WINDOW_MS;
  } catch {
    return false;
  }
}

/**
 * The root error screen. A screen that failed to load (typically after a deploy) reloads its path once
 * (product.md §2); anything else, or a second failure, shows a calm message with a reload button.
 */
export function RouteError({ error }: { error: unknown }) {
  const location = useLocation();
  const path = location.pathname + location.search;
  const reload = isChunkLoadError(error) && !reloadedRecently(path);

  useEffect(() => {
    if (!reload) {
      console.error(error);
      return;
    }
    try {
      sessionStorage.setItem(RELOAD_KEY, JSON.stringify({ path, at: Date.now() }));
    } catch {
      // without session storage the loop guard is lost; reloading is still the right first step
    }
    window.location.reload();
  }, [reload, path, error]);

  if (reload) return <AppLoading message={ja.app.reloadFailed} />;

  return (
    <main className="route-error">
      <ClubMark />
      <h1 className="route-error__title">{ja.app.error}</h1>
      <div className="route-error__actions">
        <Button block onClick={() => window.location.reload()}>
          {ja.app.reload}
        </Button>
        <Button variant="quiet" block onClick={() => window.location.assign('/')}>
          {ja.app.toHome}
        </Button>
      </div>
    </main>
  );
}
