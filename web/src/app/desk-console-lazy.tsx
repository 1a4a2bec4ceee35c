import { ja } from '@enishi/contract';
import { lazy, Suspense, type ComponentProps } from 'react';
import { Spinner } from '@/components/ui/spinner';
import type { DeskConsole as Console } from './desk-console';

const Loaded = lazy(async () => ({ default: (await import('./desk-console')).DeskConsole }));

/**
 * The staff desk (product.md §2.6), loaded only when a staff member's screen is wide enough for it: members,
 * who share the talk and room screens, never download it.
 */
export function DeskConsole(props: ComponentProps<typeof Console>) {
  return (
    <Suspense fallback={<Spinner label={ja.app.loading} />}>
      <Loaded {...props} />
    </Suspense>
  );
}
