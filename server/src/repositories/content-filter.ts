import type { Scope } from '@enishi/contract';

/**
 * Which news items or banners a query reads: the reader's scope (content.read, product.md §6), one group
 * (`type`, 1 men, 2 women) and one item (`id`). A query without a scope reads every row: the service's own
 * look-ups before a change, never a reader's list.
 */
export interface ContentFilter {
  scope?: Scope;
  type?: number | undefined;
  id?: number | undefined;
}
