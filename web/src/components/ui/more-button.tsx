import type { ReactNode } from 'react';
import { Button } from './button';

/** What a paged list's query says of its next page (as TanStack Query's infinite queries have it). */
interface PagedQuery {
  hasNextPage: boolean;
  isFetchingNextPage: boolean;
  fetchNextPage: () => Promise<unknown>;
}

/** The button under a paged list that loads its next page; nothing once there is none. */
export function MoreButton({
  query,
  block,
  children,
}: {
  query: PagedQuery;
  block?: boolean;
  children: ReactNode;
}) {
  if (!query.hasNextPage) return null;
  return (
    <Button
      variant="quiet"
      block={block}
      busy={query.isFetchingNextPage}
      // A tap while the page is on its way would only start it again.
      onClick={() => void (query.isFetchingNextPage || query.fetchNextPage())}
    >
      {children}
    </Button>
  );
}
