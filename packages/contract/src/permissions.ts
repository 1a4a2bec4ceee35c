import { ROLE } from './roles.js';

/*
 * Who may do what (product.md §6, the matrix in docs/permissions.md): every permission has a name, and one
 * pure function, `can`, decides it for an actor and, where it matters, a resource. The server's call and
 * frame declarations, its services and the web's guards, menus and buttons all ask `can`; no other module
 * compares role numbers (permissions.test.ts in the server greps for that). The role groups below are the
 * only place role numbers are read; presentation that differs by group (which copy, which icon) asks
 * `roleGroup`.
 */

/**
 * Whoever asks: a signed-in user (deleted: the account is gone), or nobody (no session). Without a `uid`
 * (a role alone, e.g. a menu drawn for a role) a permission about a resource is refused.
 */
export type PermissionActor = { uid?: number; role: number; deleted?: boolean } | null | undefined;

/** The role groups of product.md §6. */
export const isStaffRole = (role: number): boolean => role >= ROLE.admin && role <= ROLE.staffMenuLimit;
export const isMemberRole = (role: number): boolean => role === ROLE.male || role === ROLE.female;
/** Roles 1 to 3 (admin, owner, staff); roles 4 to 6 use the staff menu with less. */
const isSeniorStaff = (role: number): boolean => role >= ROLE.admin && role <= ROLE.staff;
const isOwner = (role: number): boolean => role === ROLE.owner;
const isMan = (role: number): boolean => role === ROLE.male;
const isWoman = (role: number): boolean => role === ROLE.female;

/** Which group a role belongs to, for presentation (titles, icons, which menu): not a permission. */
export type RoleGroup = 'staff' | 'men' | 'women';
export function roleGroup(role: number | null | undefined): RoleGroup | null {
  if (role === null || role === undefined) return null;
  if (isMan(role)) return 'men';
  if (isWoman(role)) return 'women';
  return isStaffRole(role) ? 'staff' : null;
}

/** The talk seats a resource-level talk rule reads (the pure half of server/src/rules/conversation-rules.ts). */
export interface TalkSeats {
  kind: string;
  memberId: number | null;
  manId: number | null;
  womanId: number | null;
}

/** Bulk-send histories (`sendmen`, `sendwomen`): read-only records of what a bulk send said. */
export const HISTORY_KINDS: readonly string[] = ['sendmen', 'sendwomen'];
export const isHistoryKind = (kind: string): boolean => HISTORY_KINDS.includes(kind);

/** Membership: a member is in their desk talk and the group talks they have a seat in. Staff have no seat. */
export function membersOf(talk: Omit<TalkSeats, 'kind'>): number[] {
  return [talk.memberId, talk.manId, talk.womanId].filter((id): id is number => id !== null);
}
export const isInTalk = (uid: number, talk: Omit<TalkSeats, 'kind'>): boolean =>
  membersOf(talk).includes(uid);

/** The resources a permission may be decided for. */
export interface PermissionResource {
  /** A talk: seen by staff and its members; written in by them unless it is a bulk-send history. */
  talk?: TalkSeats;
  /** A message or note and who wrote it (null: the account is gone). */
  authorId?: number | null;
  /** A user record the call is about (own vs. someone else's). */
  uid?: number;
  /** The role of that record, or of whom a call goes to. */
  role?: number;
  /** A news item or banner's group (1 men, 2 women). */
  contentType?: number;
}

type Rule = {
  /** One line for docs/permissions.md. */
  rule: string;
  /** Whether the role holds the permission at all (its gate; the call or frame answers 403 otherwise). */
  roles: (role: number) => boolean;
  /** Given a resource: whether this actor may act on it. Absent: the role decides alone. */
  resource?: (actor: { uid: number; role: number }, resource: PermissionResource) => boolean;
};

const anyone = (): boolean => true;
const staffOrOwn = (actor: { uid: number; role: number }, resource: PermissionResource) =>
  isStaffRole(actor.role) || resource.uid === actor.uid;
const seesTalk = (actor: { uid: number; role: number }, resource: PermissionResource) =>
  resource.talk === undefined || isStaffRole(actor.role) || isInTalk(actor.uid, resource.talk);

/** Every permission, by name. Keep the names stable: calls, frames and the web declare them. */
export const PERMISSIONS = {
  'account.use': {
    rule: 'anyone signed in: their own session, settings, push subscription, code tables, badges',
    roles: anyone,
  },
  'talk.read': {
    rule: 'anyone signed in; a talk: staff every talk, a member the talks they have a seat in',
    roles: anyone,
    resource: seesTalk,
  },
  'talk.write': {
    rule: 'as talk.read, except in a bulk-send history (nobody writes there)',
    roles: anyone,
    resource: (actor, resource) =>
      seesTalk(actor, resource) && (resource.talk === undefined || !isHistoryKind(resource.talk.kind)),
  },
  'talk.delete': {
    rule: 'anyone signed in deletes their own message in a talk they see; talk.delete_any anyone else’s',
    roles: anyone,
    resource: (actor, resource) =>
      seesTalk(actor, resource) && (isSeniorStaff(actor.role) || resource.authorId === actor.uid),
  },
  'talk.delete_any': { rule: 'roles 1 to 3: delete anyone’s message', roles: isSeniorStaff },
  'talk.unpin': {
    rule: 'in a talk they see: staff any announcement, a member one they pinned',
    roles: anyone,
    resource: (actor, resource) =>
      seesTalk(actor, resource) && (isStaffRole(actor.role) || resource.authorId === actor.uid),
  },
  'talk.group.create': {
    rule: 'staff (roles 1 to 6): register a man and a woman’s group talk',
    roles: isStaffRole,
  },
  'broadcast.send': { rule: 'staff: bulk sends to men or women', roles: isStaffRole },
  'broadcast.read': { rule: 'staff: bulk-send histories and their recipients', roles: isStaffRole },
  'content.read': {
    rule: 'anyone signed in; an item: staff every group’s, a member their own group’s (101 men, 201 women)',
    roles: anyone,
    resource: (actor, resource) =>
      isStaffRole(actor.role) ||
      (resource.contentType !== undefined && resource.contentType === contentGroupOf(actor.role)),
  },
  'content.manage': { rule: 'staff: news and ad banners', roles: isStaffRole },
  'user.read': {
    rule: 'anyone signed in; a record: staff anyone’s, a member their own',
    roles: anyone,
    resource: staffOrOwn,
  },
  'member.profile.read': {
    rule: 'anyone signed in; a profile: staff any member’s, a member their own',
    roles: anyone,
    resource: staffOrOwn,
  },
  'member.profile.update': {
    rule: 'staff: as member.manage; members (101, 201): their own profile, only the fields the owner made editable',
    roles: (role) => isStaffRole(role) || isMemberRole(role),
    resource: (actor, resource) =>
      isStaffRole(actor.role)
        ? resource.role === undefined || !isStaffRole(resource.role) || isOwner(actor.role)
        : resource.uid === actor.uid,
  },
  'member.manage': {
    rule: 'staff (roles 1 to 6): men’s and women’s records, profiles, photos, applications, notes',
    roles: isStaffRole,
    resource: (actor, resource) =>
      resource.role === undefined || !isStaffRole(resource.role) || isOwner(actor.role),
  },
  'staff.manage': {
    rule: 'the owner (role 2): staff records, and whether staff must use a second factor',
    roles: isOwner,
  },
  'user.image.upload': {
    rule: 'staff and women; one’s own picture: roles 1 to 3 and 201; someone else’s: as member.manage',
    roles: (role) => isStaffRole(role) || isWoman(role),
    resource: (actor, resource) =>
      resource.uid === actor.uid ? isSeniorStaff(actor.role) || isWoman(actor.role) : isStaffRole(actor.role),
  },
  'note.delete_any': { rule: 'roles 1 to 3: delete a colleague’s note on a member', roles: isSeniorStaff },
  'reply.manage': { rule: 'roles 1 to 3: edit the saved replies', roles: isSeniorStaff },
  'desk.use': {
    rule: 'staff: the desk, saved replies, notes on members, the staff menu',
    roles: isStaffRole,
  },
  'lookups.manage': {
    rule: 'the admin and the owner (roles 1, 2): the club’s own code lists',
    roles: (role) => role === ROLE.admin || isOwner(role),
  },
  'audit.read': { rule: 'the owner (role 2): the audit log', roles: isOwner },
  'women.browse': {
    rule: 'men (101) and staff: the women’s list and cards',
    roles: (role) => isMan(role) || isStaffRole(role),
  },
  'women.favorite': { rule: 'men (101): their own favourites', roles: isMan },
  'member_site.open': { rule: 'men (101): the member site and its menu', roles: isMan },
  'setting.read': {
    rule: 'staff every request; a man his own; a woman hers once arranged',
    roles: (role) => isStaffRole(role) || isMemberRole(role),
  },
  'setting.request': { rule: 'men (101): ask for a setting, cancel their own request', roles: isMan },
  'setting.decide': { rule: 'staff: arrange or decline a setting request', roles: isStaffRole },
  'call.place': {
    rule: 'staff and men (101) take part in voice calls and get TURN credentials; staff call men, men call staff',
    roles: (role) => isMan(role) || isStaffRole(role),
    resource: (actor, resource) =>
      resource.role === undefined ||
      (isStaffRole(actor.role) && isMan(resource.role)) ||
      (isMan(actor.role) && isStaffRole(resource.role)),
  },
} as const satisfies Record<string, Rule>;

export type Permission = keyof typeof PERMISSIONS;
export const PERMISSION_NAMES = Object.keys(PERMISSIONS) as Permission[];

/** A news item or banner's group for a member (1 men, 2 women); null for staff. */
function contentGroupOf(role: number): number | null {
  if (isMan(role)) return 1;
  return isWoman(role) ? 2 : null;
}

/**
 * Whether the actor holds the permission, and with a resource, whether they may act on that one. No session
 * and a deleted account hold nothing.
 */
export function can(actor: PermissionActor, permission: Permission, resource?: PermissionResource): boolean {
  if (!actor || actor.deleted) return false;
  const rule: Rule = PERMISSIONS[permission];
  if (!rule.roles(actor.role)) return false;
  if (resource === undefined || rule.resource === undefined) return true;
  return actor.uid !== undefined && rule.resource({ uid: actor.uid, role: actor.role }, resource);
}

/**
 * What a refused call answers (product.md §11.3): 401 without a session (or with a deleted account's), 403
 * for a permission the role lacks. A refused resource is the service's to answer (404 where what exists
 * may not be seen).
 */
export function refusalStatus(actor: PermissionActor, permission: Permission): 401 | 403 | null {
  if (!actor || actor.deleted) return 401;
  return can(actor, permission) ? null : 403;
}
