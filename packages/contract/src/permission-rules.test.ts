import { describe, expect, it } from 'vitest';
import {
  can,
  isHistoryKind,
  isInTalk,
  isMemberRole,
  isStaffRole,
  membersOf,
  refusalStatus,
  ROLE_TRAITS,
  roleGroup,
  type Permission,
} from './index.js';

/*
 * Every rule of the permission model (product.md §6) stated once more as a table, so that a changed role
 * bound or a rule swapped for another fails here: the roles on each side of every bound (0 | 1…3 | 4…6 | 7),
 * and each resource rule on both of its sides.
 */
const ROLES = [0, 1, 2, 3, 4, 6, 7, 101, 201] as const;
const ALL = [0, 1, 2, 3, 4, 6, 7, 101, 201];
const STAFF = [1, 2, 3, 4, 6];
const SENIOR = [1, 2, 3];

/** Which of ROLES hold each permission, the resource aside. */
const HOLDERS: Record<Permission, readonly number[]> = {
  'account.use': ALL,
  'talk.read': ALL,
  'talk.write': ALL,
  'talk.delete': ALL,
  'talk.delete_any': SENIOR,
  'talk.unsend': [...STAFF, 101, 201],
  'talk.unpin': ALL,
  'talk.group.create': STAFF,
  'talk.desk': [101, 201],
  'broadcast.send': STAFF,
  'broadcast.read': STAFF,
  'content.read': ALL,
  'content.manage': STAFF,
  'stamp.manage': STAFF,
  'user.read': ALL,
  'member.profile.read': ALL,
  'member.profile.update': [...STAFF, 101, 201],
  'member.manage': STAFF,
  'staff.manage': [2],
  'user.image.upload': [...STAFF, 201],
  'note.delete_any': SENIOR,
  'reply.manage': SENIOR,
  'desk.use': STAFF,
  'desk.status': STAFF,
  'desk.assign': STAFF,
  'desk.round_robin': [1, 2],
  'lookups.manage': [1, 2],
  'calendar.manage': [1, 2],
  'report.view': [1, 2],
  'audit.read': [2],
  'women.browse': [...STAFF, 101],
  'women.favorite': [101],
  'member_site.open': [101],
  'setting.read': [...STAFF, 101, 201],
  'setting.request': [101],
  'setting.decide': STAFF,
  'call.place': [...STAFF, 101],
  'call.answer': STAFF,
};

type Actor = { uid: number; role: number };
const as = (uid: number, role: number = uid): Actor => ({ uid, role });
const desk = (memberId: number) => ({ kind: 'desk', memberId, manId: null, womanId: null });
const group = (manId: number, womanId: number) => ({ kind: 'group', memberId: null, manId, womanId });
const history = { kind: 'sendwomen', memberId: null, manId: 101, womanId: 201 };

describe('the permission model, rule by rule', () => {
  it.each(Object.entries(HOLDERS) as [Permission, number[]][])(
    '%s is held by roles %j',
    (permission, roles) => {
      expect(ROLES.filter((role) => can({ uid: 1, role }, permission))).toEqual(roles);
      for (const role of ROLES) {
        expect(refusalStatus({ uid: 1, role }, permission)).toBe(roles.includes(role) ? null : 403);
      }
    },
  );

  it('reads the role groups at their bounds', () => {
    expect(ROLES.filter(isStaffRole)).toEqual(STAFF);
    expect(ROLES.filter(isMemberRole)).toEqual([101, 201]);
    expect([null, undefined, 0, 7, 100, 102, 200, 202].map(roleGroup)).toEqual(Array(8).fill(null));
  });

  it('holds each role’s traits as data: kind, rank, news group; none for a role the club does not use', () => {
    const traits = ROLES.map((role) => ROLE_TRAITS[role]);
    expect(traits.map((each) => each?.kind ?? null)).toEqual(ROLES.map(roleGroup));
    expect(ROLES.filter((role) => ROLE_TRAITS[role]?.ranked)).toEqual([101]);
    expect(traits.map((each) => each?.contentType)).toEqual([
      undefined,
      ...Array(5).fill(null),
      undefined,
      1,
      2,
    ]);
    // The news group of a role is what content.read lets it read.
    for (const role of [101, 201])
      expect(can(as(role), 'content.read', { contentType: ROLE_TRAITS[role]!.contentType! })).toBe(true);
  });

  it('seats members in talks: the desk’s member and a group’s two; staff have none', () => {
    expect(membersOf(desk(101))).toEqual([101]);
    expect(membersOf(group(101, 201))).toEqual([101, 201]);
    expect(isInTalk(201, group(101, 201))).toBe(true);
    expect(isInTalk(202, group(101, 201))).toBe(false);
    expect(isHistoryKind('sendmen')).toBe(true);
    expect(isHistoryKind('sendwomen')).toBe(true);
    expect(isHistoryKind('desk')).toBe(false);
  });

  it('lets a talk be read by staff and its members, and written in except in a history', () => {
    expect(can(as(6), 'talk.read', { talk: desk(101) })).toBe(true);
    expect(can(as(201), 'talk.read', { talk: group(101, 201) })).toBe(true);
    expect(can(as(202, 201), 'talk.read', { talk: group(101, 201) })).toBe(false);
    expect(can(as(201), 'talk.write', { talk: group(101, 201) })).toBe(true);
    expect(can(as(202, 201), 'talk.write', { talk: group(101, 201) })).toBe(false);
    expect(can(as(101), 'talk.write', { talk: desk(101) })).toBe(true);
    expect(can(as(201), 'talk.write', { talk: history })).toBe(false);
    expect(can(as(1), 'talk.write', { talk: history })).toBe(false);
    // Without a talk, the role decides.
    expect(can(as(101), 'talk.write', { authorId: 5 })).toBe(true);
  });

  it('lets anyone on the desk take a talk or let go of their own; roles 1 to 3 hand it over', () => {
    expect(can(as(6), 'desk.assign', { assignment: { from: null, to: 6 } })).toBe(true);
    expect(can(as(6), 'desk.assign', { assignment: { from: 3, to: 6 } })).toBe(true);
    expect(can(as(6), 'desk.assign', { assignment: { from: 6, to: null } })).toBe(true);
    expect(can(as(6), 'desk.assign', { assignment: { from: 3, to: null } })).toBe(false);
    expect(can(as(6), 'desk.assign', { assignment: { from: null, to: 3 } })).toBe(false);
    expect(can(as(3), 'desk.assign', { assignment: { from: 6, to: 1 } })).toBe(true);
    expect(can(as(101), 'desk.assign', { assignment: { from: null, to: 101 } })).toBe(false);
  });

  it('lets a message be deleted by its author where they see it, and by roles 1 to 3', () => {
    expect(can(as(101), 'talk.delete', { talk: desk(101), authorId: 101 })).toBe(true);
    expect(can(as(101), 'talk.delete', { talk: desk(102), authorId: 101 })).toBe(false);
    expect(can(as(101), 'talk.delete', { talk: desk(101), authorId: 3 })).toBe(false);
    expect(can(as(6), 'talk.delete', { talk: desk(101), authorId: 6 })).toBe(true);
    expect(can(as(6), 'talk.delete', { talk: desk(101), authorId: 101 })).toBe(false);
    expect(can(as(3), 'talk.delete', { talk: desk(101), authorId: 101 })).toBe(true);
  });

  it('lets a message be taken back by its author alone, where they write, within 24 hours', () => {
    const sentAt = Date.UTC(2026, 10, 1, 0, 0, 0);
    const day = 24 * 60 * 60 * 1000;
    const mine = { talk: desk(101), authorId: 101, sentAt };
    expect(can(as(101), 'talk.unsend', { ...mine, now: sentAt + day })).toBe(true);
    expect(can(as(101), 'talk.unsend', { ...mine, now: sentAt + day + 1 })).toBe(false);
    expect(can(as(101), 'talk.unsend', { talk: desk(101), authorId: 3, sentAt, now: sentAt })).toBe(false);
    expect(can(as(3), 'talk.unsend', { talk: desk(101), authorId: 101, sentAt, now: sentAt })).toBe(false);
    expect(can(as(6), 'talk.unsend', { talk: desk(101), authorId: 6, sentAt, now: sentAt })).toBe(true);
    expect(can(as(101), 'talk.unsend', { talk: desk(102), authorId: 101, sentAt, now: sentAt })).toBe(false);
    expect(can(as(1), 'talk.unsend', { talk: history, authorId: 1, sentAt, now: sentAt })).toBe(false);
  });

  it('lets an announcement be unpinned by staff, or by the member who pinned it in their talk', () => {
    expect(can(as(6), 'talk.unpin', { talk: desk(101), authorId: 101 })).toBe(true);
    expect(can(as(101), 'talk.unpin', { talk: group(101, 201), authorId: 101 })).toBe(true);
    expect(can(as(101), 'talk.unpin', { talk: group(101, 201), authorId: 201 })).toBe(false);
    expect(can(as(101), 'talk.unpin', { talk: desk(102), authorId: 101 })).toBe(false);
  });

  it('shows news to staff whatever its group, and to a member only their group’s', () => {
    expect(can(as(6), 'content.read', {})).toBe(true);
    expect(can(as(6), 'content.read', { contentType: 2 })).toBe(true);
    expect(can(as(201), 'content.read', { contentType: 2 })).toBe(true);
    expect(can(as(201), 'content.read', { contentType: 1 })).toBe(false);
    expect(can(as(101), 'content.read', {})).toBe(false);
    expect(can({ uid: 7, role: 7 }, 'content.read', { contentType: 1 })).toBe(false);
  });

  it('lets staff read anyone’s record and members their own', () => {
    for (const permission of ['user.read', 'member.profile.read'] as const) {
      expect(can(as(6), permission, { uid: 201 })).toBe(true);
      expect(can(as(201), permission, { uid: 201 })).toBe(true);
      expect(can(as(201), permission, { uid: 101 })).toBe(false);
    }
  });

  it('keeps staff records to the owner: member.manage and profile updates', () => {
    for (const permission of ['member.manage', 'member.profile.update'] as const) {
      expect(can(as(3), permission, { uid: 201, role: 201 })).toBe(true);
      expect(can(as(3), permission, { uid: 9 })).toBe(true);
      expect(can(as(3), permission, { uid: 6, role: 6 })).toBe(false);
      expect(can(as(1), permission, { uid: 6, role: 1 })).toBe(false);
      expect(can(as(2), permission, { uid: 6, role: 6 })).toBe(true);
    }
    expect(can(as(101), 'member.profile.update', { uid: 101, role: 101 })).toBe(true);
    expect(can(as(101), 'member.profile.update', { uid: 102, role: 101 })).toBe(false);
  });

  it('lets roles 1 to 3 and women upload their own picture, and staff someone else’s', () => {
    const uploads = (actor: Actor, uid: number) => can(actor, 'user.image.upload', { uid });
    expect(uploads(as(3), 3)).toBe(true);
    expect(uploads(as(4), 4)).toBe(false);
    expect(uploads(as(201), 201)).toBe(true);
    expect(uploads(as(4), 201)).toBe(true);
    expect(uploads(as(201), 202)).toBe(false);
  });

  it('lets staff call men and men call staff', () => {
    expect(can(as(6), 'call.place', {})).toBe(true);
    const pairs: [number, number][] = [
      [6, 101],
      [101, 4],
      [6, 201],
      [6, 3],
      [101, 101],
    ];
    expect(pairs.map(([from, to]) => can(as(from), 'call.place', { role: to }))).toEqual([
      true,
      true,
      false,
      false,
      false,
    ]);
  });

  it('lets staff register a group talk of a man and a woman, no other pair', () => {
    const pairs: [number, number][] = [
      [101, 201],
      [201, 101],
      [101, 101],
      [201, 201],
      [3, 201],
      [101, 6],
    ];
    const registers = (actor: Actor) =>
      pairs.map(([manRole, womanRole]) => can(actor, 'talk.group.create', { pair: { manRole, womanRole } }));
    expect(registers(as(6))).toEqual([true, false, false, false, false, false]);
    expect(registers(as(101))).toEqual(Array(6).fill(false));
    expect(can(as(6), 'talk.group.create', {})).toBe(true);
  });

  it('gives members a talk with the desk, and staff the calls men place', () => {
    expect(ROLES.filter((role) => can({ role }, 'talk.desk'))).toEqual([101, 201]);
    expect(ROLES.filter((role) => can({ role }, 'call.answer'))).toEqual(STAFF);
    // Whoever answers calls is whom a man may call, and the other way round.
    for (const role of ROLES) expect(can({ role }, 'call.answer')).toBe(can(as(101), 'call.place', { role }));
  });

  it('grants a permission without a resource rule whatever the resource, given the role', () => {
    expect(can(as(6), 'desk.use', { uid: 9, role: 1 })).toBe(true);
    expect(can({ role: 6 }, 'desk.use', { uid: 9 })).toBe(true);
    expect(can({ role: 6 }, 'user.read', { uid: 9 })).toBe(false);
    expect(can({ uid: 6, role: 6, deleted: false }, 'desk.use')).toBe(true);
    expect(refusalStatus(null, 'account.use')).toBe(401);
  });
});
