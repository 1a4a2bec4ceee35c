import { useCallback, useState } from 'react';

/**
 * A call a public page makes when its form is sent. The module that makes it (the api client with the call
 * schemas) is loaded only then, or as soon as the form is first touched (`preload`), so the prerendered
 * pages hydrate without it (product.md §2.7). `load` must be a stable function (declare it at module level).
 */
export function useLazyAction<A, R>(load: () => Promise<(argument: A) => Promise<R>>) {
  const [pending, setPending] = useState(false);
  const preload = useCallback(() => void load().catch(() => undefined), [load]);
  const run = useCallback(
    async (argument: A): Promise<R> => {
      setPending(true);
      try {
        const action = await load();
        return await action(argument);
      } finally {
        setPending(false);
      }
    },
    [load],
  );
  return { pending, run, preload };
}
