import { contentTypeOfRole, isStaffRole, can } from '@enishi/contract';
import { notFound } from '../errors.js';
import type { Actor } from './session-service.js';

export interface ContentQuery {
  type?: 1 | 2;
  id?: number;
}

/**
 * News or banners as `actor` may read them. Staff: of `type`, or all; one item (`id`) whatever its type.
 * A member is always held to their group, whatever `type` says; an item of the other group is "not found".
 */
export async function readableContent<Item extends { type: number }>(
  actor: Actor,
  query: ContentQuery,
  list: (filter: { type?: number; id?: number }) => Promise<Item[]>,
): Promise<Item[]> {
  const staff = isStaffRole(actor.role);
  const type = staff
    ? query.id === undefined
      ? query.type
      : undefined
    : (contentTypeOfRole(actor.role) ?? undefined);
  if (!staff && type === undefined) return [];
  const items = await list({ type, id: query.id });
  if (query.id !== undefined && (!items[0] || !can(actor, 'content.read', { contentType: items[0].type })))
    throw notFound();
  return items;
}
