import { useEffect, useRef } from 'react';

/**
 * Asks for the next page when the end of a list comes near (IntersectionObserver): the element the returned ref
 * is put on, within `ahead` below the screen.
 */
export function useLoadMore(hasNext: boolean, loading: boolean, load: () => void, ahead: string) {
  const end = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const element = end.current;
    if (!element || !hasNext) return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((entry) => entry.isIntersecting) && !loading) load();
      },
      { rootMargin: `0px 0px ${ahead} 0px` },
    );
    observer.observe(element);
    return () => observer.disconnect();
  }, [hasNext, loading, load, ahead]);
  return end;
}
