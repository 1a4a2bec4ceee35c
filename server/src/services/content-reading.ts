import { scope, type Scope } from '@enishi/contract';
import { notFound } from '../errors.js';
import type { Actor } from './session-service.js';

export interface ContentQuery {
  type?: 1 | 2;
  id?: number;
}

/**
 * News or banners as `actor` may read them: the rows of content.read's scope (staff every group's, a member
 * their own group's). Staff: of `type`, or all; one item (`id`) whatever its type. A member is held to their
 * group whatever `type` says; an item of the other group is "not found".
 */
export async function readableContent<Item>(
  actor: Actor,
  query: ContentQuery,
  list: (filter: { scope: Scope; type?: number | undefined; id?: number | undefined }) => Promise<Item[]>,
): Promise<Item[]> {
  const readable = scope(actor, 'content.read');
  const type = readable.all && query.id === undefined ? query.type : undefined;
  const items = await list({ scope: readable, type, id: query.id });
  if (query.id !== undefined && !items[0]) throw notFound();
  return items;
}
