import { ROLE, ROLE_TRAITS, type RoleKind } from './roles.js';
import { EVERY_ROW, NO_ROW, rowsMatching, type Scope } from './scope.js';

/*
 * Who may do what (product.md §6, the matrix in docs/permissions.md): every permission has a name, and one
 * pure function, `can`, decides it for an actor and, where it matters, a resource; `scope` answers the same
 * rule for the rows of a list (scope.ts). The server's call and frame declarations, its services, lists and
 * the web's guards, menus and buttons all ask `can` or `scope`; no other module compares role numbers
 * (server/src/http/role-comparisons.test.ts greps for that, and counts the role helpers below used elsewhere).
 * The role groups below are the only place role numbers are read; what differs by role without being a
 * permission (which label, which colour, which news group) is data, read from roles.ts's ROLE_TRAITS.
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

/** Which group a role belongs to (ROLE_TRAITS' kind): not a permission. */
export type RoleGroup = RoleKind;
export const roleGroup = (role: number | null | undefined): RoleGroup | null =>
  ROLE_TRAITS[role ?? 0]?.kind ?? null;

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
  /**
   * A message's age for 送信取消: when it was stored and now (ms since the epoch). Absent: age is not asked
   * (whether the actor could take it back at all).
   */
  sentAt?: number;
  now?: number;
  /** A setting request: its man, its woman (null: one only the enquiry service knows) and its state. */
  setting?: { manId: number; womanId: number | null; status: string };
  /** The roles of the man and the woman a group talk is to seat. */
  pair?: { manRole: number; womanRole: number };
  /** A desk talk's 担当 changing: who it is now and who it is to be (null: none). */
  assignment?: { from: number | null; to: number | null };
}

type Rule = {
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
/** How long after sending a message may be taken back (送信取消, product.md §15.4). */
export const UNSEND_WINDOW_MS = 24 * 60 * 60 * 1000;
const withinUnsendWindow = (resource: PermissionResource) =>
  resource.sentAt === undefined ||
  resource.now === undefined ||
  resource.now - resource.sentAt <= UNSEND_WINDOW_MS;

/** The rows of `staffOrOwn`: staff every record, anyone else their own. */
const staffOrOwnRows = (actor: { uid: number; role: number }): Scope =>
  isStaffRole(actor.role) ? EVERY_ROW : rowsMatching({ uid: actor.uid });

/**
 * Every permission, by name. Keep the names stable: calls, frames and the web declare them. What each one
 * allows, in words, is its line in permission-lines.ts (docs/permissions.md prints both).
 */
export const PERMISSIONS = {
  'account.use': { roles: anyone },
  'talk.read': { roles: anyone, resource: seesTalk },
  'talk.write': {
    roles: anyone,
    resource: (actor, resource) =>
      seesTalk(actor, resource) && (resource.talk === undefined || !isHistoryKind(resource.talk.kind)),
  },
  'talk.delete': {
    roles: anyone,
    resource: (actor, resource) =>
      seesTalk(actor, resource) && (isSeniorStaff(actor.role) || resource.authorId === actor.uid),
  },
  'talk.delete_any': { roles: isSeniorStaff },
  'talk.unsend': {
    roles: (role) => isStaffRole(role) || isMemberRole(role),
    resource: (actor, resource) =>
      seesTalk(actor, resource) &&
      (resource.talk === undefined || !isHistoryKind(resource.talk.kind)) &&
      resource.authorId === actor.uid &&
      withinUnsendWindow(resource),
  },
  'talk.unpin': {
    roles: anyone,
    resource: (actor, resource) =>
      seesTalk(actor, resource) && (isStaffRole(actor.role) || resource.authorId === actor.uid),
  },
  'talk.group.create': {
    roles: isStaffRole,
    resource: (_actor, { pair }) => pair === undefined || (isMan(pair.manRole) && isWoman(pair.womanRole)),
  },
  'talk.desk': { roles: isMemberRole },
  'broadcast.send': { roles: isStaffRole },
  'broadcast.read': { roles: isStaffRole },
  'content.read': {
    roles: anyone,
    resource: (actor, resource) =>
      isStaffRole(actor.role) ||
      (resource.contentType !== undefined && resource.contentType === contentTypeOfRole(actor.role)),
  },
  'content.manage': { roles: isStaffRole },
  'stamp.manage': { roles: isStaffRole },
  'user.read': { roles: anyone, resource: staffOrOwn },
  'member.profile.read': {
    roles: anyone,
    resource: (actor, resource) =>
      staffOrOwn(actor, resource) && (resource.role === undefined || isMemberRole(resource.role)),
  },
  'member.profile.update': {
    roles: (role) => isStaffRole(role) || isMemberRole(role),
    resource: (actor, resource) =>
      isStaffRole(actor.role)
        ? resource.role === undefined || !isStaffRole(resource.role) || isOwner(actor.role)
        : resource.uid === actor.uid,
  },
  'member.manage': {
    roles: isStaffRole,
    resource: (actor, resource) =>
      resource.role === undefined || !isStaffRole(resource.role) || isOwner(actor.role),
  },
  'staff.manage': { roles: isOwner },
  'user.image.upload': {
    roles: (role) => isStaffRole(role) || isWoman(role),
    resource: (actor, resource) =>
      resource.uid === actor.uid ? isSeniorStaff(actor.role) || isWoman(actor.role) : isStaffRole(actor.role),
  },
  'note.delete_any': { roles: isSeniorStaff },
  'reply.manage': { roles: isSeniorStaff },
  'desk.use': { roles: isStaffRole },
  'desk.status': { roles: isStaffRole },
  'desk.assign': {
    roles: isStaffRole,
    // Anyone on the desk takes a talk or lets go of their own; handing over or taking it off someone else is
    // for roles 1 to 3 (product.md §2.6).
    resource: (actor, { assignment }) =>
      assignment === undefined ||
      isSeniorStaff(actor.role) ||
      assignment.to === actor.uid ||
      (assignment.to === null && assignment.from === actor.uid),
  },
  'desk.round_robin': { roles: (role) => role === ROLE.admin || isOwner(role) },
  'lookups.manage': { roles: (role) => role === ROLE.admin || isOwner(role) },
  'calendar.manage': { roles: (role) => role === ROLE.admin || isOwner(role) },
  'report.view': { roles: (role) => role === ROLE.admin || isOwner(role) },
  'audit.read': { roles: isOwner },
  'women.browse': {
    roles: (role) => isMan(role) || isStaffRole(role),
    resource: (_actor, resource) => resource.role === undefined || isWoman(resource.role),
  },
  'women.favorite': { roles: isMan },
  'member_site.open': { roles: isMan },
  'setting.read': {
    roles: (role) => isStaffRole(role) || isMemberRole(role),
    resource: (actor, { setting }) => {
      if (setting === undefined || isStaffRole(actor.role)) return true;
      if (isMan(actor.role)) return setting.manId === actor.uid;
      return setting.womanId === actor.uid && setting.status === 'arranged';
    },
  },
  'setting.request': { roles: isMan },
  'setting.decide': { roles: isStaffRole },
  'call.place': {
    roles: (role) => isMan(role) || isStaffRole(role),
    resource: (actor, resource) =>
      resource.role === undefined ||
      (isStaffRole(actor.role) && isMan(resource.role)) ||
      (isMan(actor.role) && isStaffRole(resource.role)),
  },
  'call.answer': { roles: isStaffRole },
} as const satisfies Record<string, Rule>;

export type Permission = keyof typeof PERMISSIONS;
export const PERMISSION_NAMES = Object.keys(PERMISSIONS) as Permission[];

/**
 * Which rows of a list each permission lets an actor see (scope.ts): the same rule as its `resource` above,
 * for a list's query (server/src/rules/scope-sql.ts); scope.test.ts holds the two to agreement row by row.
 * Absent: every row. A table apart from PERMISSIONS because only the server lists rows: the web's first
 * loads, which ask `can` alone, leave it out (e2e/tests/js-budget.test.ts).
 */
const SCOPES: { [P in Permission]?: (actor: { uid: number; role: number }) => Scope } = {
  'talk.read': (actor) =>
    isStaffRole(actor.role)
      ? EVERY_ROW
      : rowsMatching({ memberId: actor.uid }, { manId: actor.uid }, { womanId: actor.uid }),
  'content.read': (actor) => {
    if (isStaffRole(actor.role)) return EVERY_ROW;
    const contentType = contentTypeOfRole(actor.role);
    return contentType === null ? NO_ROW : rowsMatching({ contentType });
  },
  'user.read': staffOrOwnRows,
  'member.profile.read': (actor) => {
    const own = isStaffRole(actor.role) ? {} : { uid: actor.uid };
    return rowsMatching({ ...own, role: ROLE.male }, { ...own, role: ROLE.female });
  },
  'member.manage': (actor) =>
    isOwner(actor.role) ? EVERY_ROW : rowsMatching({ role: ROLE.male }, { role: ROLE.female }),
  'women.browse': () => rowsMatching({ role: ROLE.female }),
  'setting.read': (actor) => {
    if (isStaffRole(actor.role)) return EVERY_ROW;
    if (isMan(actor.role)) return rowsMatching({ manId: actor.uid });
    return rowsMatching({ womanId: actor.uid, status: 'arranged' });
  },
};

/** The permissions whose lists are scoped row by row (docs/permissions.md names them). */
export const scopedPermissions = (): Permission[] => Object.keys(SCOPES) as Permission[];

/** The news and banners group of a member (1 men, 2 women, as CONTENT_TYPE in wire.ts); null for staff. */
export const contentTypeOfRole = (role: number): 1 | 2 | null => ROLE_TRAITS[role]?.contentType ?? null;

/** The members of a news or bulk-send group (1 men, 2 women): the role its recipients have. */
export const roleOfContentType = (type: number): number => (type === 2 ? ROLE.female : ROLE.male);

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
 * Which rows of a list the actor may see under the permission: the rows `can` allows one by one (scope.ts;
 * server/src/rules/scope-sql.ts is its SQL). None without the permission, or with a role alone where the
 * permission is about a resource; every row where the role decides alone.
 */
export function scope(actor: PermissionActor, permission: Permission): Scope {
  if (!actor || !can(actor, permission)) return NO_ROW;
  const rows = SCOPES[permission];
  if (rows === undefined) return EVERY_ROW;
  return actor.uid === undefined ? NO_ROW : rows({ uid: actor.uid, role: actor.role });
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
