import {
  canDeleteAnyMessage,
  canManageStaff,
  canUploadOwnImage,
  contentTypeOfRole,
  isStaffRole,
  type MemberKind,
} from '@enishi/contract';
import { readerOf, seesTalk, type Talk } from '../rules/conversation-rules.js';
import type { Actor } from './session-service.js';

/*
 * Who may do what, in one place (product.md §6). Services call these; a `false` for something that exists but
 * may not be seen must be answered exactly like "not found".
 */
export const policies = {
  /** Staff read anyone; a member reads only themselves. */
  readUser: (actor: Actor, uid: number): boolean => isStaffRole(actor.role) || actor.uid === uid,
  listApplications: (actor: Actor): boolean => isStaffRole(actor.role),

  /** Men's and women's records: any staff (roles 1 to 6). Staff records: the owner (role 2) alone. */
  manageUsers: (actor: Actor, kind: MemberKind): boolean =>
    kind === 'staff' ? canManageStaff(actor.role) : isStaffRole(actor.role),
  /** One's own profile picture: roles 1 to 3 and 201 (product.md §6). */
  uploadOwnImage: (actor: Actor): boolean => canUploadOwnImage(actor.role),
  readAuditLog: (actor: Actor): boolean => canManageStaff(actor.role),
  /** The club's requirement of a second factor for all staff: the owner (role 2) alone (product.md §11.7). */
  requireStaffSecondFactor: (actor: Actor): boolean => canManageStaff(actor.role),

  /** The visibility rule of rules/conversation-rules.ts: staff see every talk, a member their own. */
  seeConversation: (actor: Actor, conversation: Talk): boolean => seesTalk(readerOf(actor), conversation),
  /** Bulk-send histories are for staff only. */
  seeBroadcasts: (actor: Actor): boolean => isStaffRole(actor.role),
  /** News, ad banners and bulk sends are managed by staff (roles 1 to 6). */
  manageContent: (actor: Actor): boolean => isStaffRole(actor.role),
  /** News and banners of a group (1 men, 2 women): staff see all; a member only their own group's. */
  seeContent: (actor: Actor, type: number): boolean =>
    isStaffRole(actor.role) || contentTypeOfRole(actor.role) === type,
  deleteMessage: (actor: Actor, message: { senderId: number | null }): boolean =>
    canDeleteAnyMessage(actor.role) || message.senderId === actor.uid,
  unpinAnnouncement: (actor: Actor, message: { senderId: number | null }): boolean =>
    isStaffRole(actor.role) || message.senderId === actor.uid,
};
