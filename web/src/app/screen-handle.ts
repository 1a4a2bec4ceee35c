import type { ConversationType } from '@enishi/contract';
import type { LayoutHandle } from '@/components/layouts/app-layout';

/** What a route's `handle` carries: the screen title, and for room lists which rooms they show. */
export type ScreenHandle = LayoutHandle & {
  title: string;
  /** The title staff see, where the same route shows them something else (their staff rooms). */
  staffTitle?: string;
  rooms?: ConversationType;
};
