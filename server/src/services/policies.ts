import { isStaffRole } from '@enishi/contract';
import type { Actor } from './session-service.js';

/*
 * Who may do what, in one place (SPEC §6). Services call these; a `false` for something that exists but
 * may not be seen must be answered exactly like "not found".
 */
export const policies = {
  /** Staff read anyone; a member reads only themselves. */
  readUser: (actor: Actor, uid: number): boolean => isStaffRole(actor.role) || actor.uid === uid,
  listApplications: (actor: Actor): boolean => isStaffRole(actor.role),
};
