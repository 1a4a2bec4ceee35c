import type { apiCalls } from '../http/calls.js';
import type { DeskTalkService } from '../services/desk-talk-service.js';

/**
 * A desk talk's status and 担当 (product.md §2.6): set them, the side navigation's counts, who may be 担当,
 * and the admin's switch for 担当 in turn.
 */
export function deskTalkRoutes(
  calls: ReturnType<typeof apiCalls>,
  services: { deskTalks: DeskTalkService },
): void {
  const { deskTalks } = services;
  calls.session('desk/status', 'desk.status', ({ body, actor }) =>
    deskTalks.setStatus(actor, body.conversation_id, body.status),
  );
  calls.session('desk/assign', 'desk.assign', ({ body, actor }) =>
    deskTalks.assign(actor, body.conversation_id, body.assignee),
  );
  calls.session('desk/counts', 'desk.status', ({ actor }) => deskTalks.counts(actor));
  calls.session('desk/staff', 'desk.status', ({ actor }) => deskTalks.staff(actor));
  calls.session('desk/round_robin', 'desk.round_robin', ({ body, actor }) =>
    deskTalks.setRoundRobin(actor, body.enabled),
  );
}
