import { can, ROLE } from '@enishi/contract';
import { MEN_TOPIC, STAFF_TOPIC, userTopic } from '../bus/delivery.js';
import { readerOf } from '../rules/conversation-rules.js';

/**
 * The topics a person's chat sockets hear on the bus: their own; for staff, all staff's (staff belong to
 * every talk, talk.read's every row); for whoever calls the staff (male members), the men's, where staff
 * presence goes for the emergency call list (product.md §17.8).
 */
export function topicsHeardBy(actor: { uid: number; role: number }): string[] {
  if (readerOf(actor).isStaff) return [userTopic(actor.uid), STAFF_TOPIC];
  return can(actor, 'call.place', { role: ROLE.staff })
    ? [userTopic(actor.uid), MEN_TOPIC]
    : [userTopic(actor.uid)];
}
