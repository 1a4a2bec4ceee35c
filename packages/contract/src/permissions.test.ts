import { describe, expect, it } from 'vitest';
import { can, mayCall, PERMISSION_NAMES, refusalStatus, roleGroup, type Permission } from './index.js';

const admin = { uid: 1, role: 1 };
const owner = { uid: 2, role: 2 };
const staff = { uid: 3, role: 3 };
const staff6 = { uid: 6, role: 6 };
const man = { uid: 101, role: 101 };
const woman = { uid: 201, role: 201 };
const everyone = [admin, owner, staff, staff6, man, woman];

const holders = (permission: Permission) =>
  everyone.filter((actor) => can(actor, permission)).map((actor) => actor.role);

describe('can', () => {
  it('gives nothing without a session or to a deleted account', () => {
    for (const permission of PERMISSION_NAMES) {
      expect(can(null, permission)).toBe(false);
      expect(can(undefined, permission)).toBe(false);
      expect(can({ ...owner, deleted: true }, permission)).toBe(false);
      expect(refusalStatus({ ...man, deleted: true }, permission)).toBe(401);
    }
  });

  it('holds each role-level rule of product.md §6', () => {
    expect(holders('talk.delete_any')).toEqual([1, 2, 3]);
    expect(holders('member.manage')).toEqual([1, 2, 3, 6]);
    expect(holders('staff.manage')).toEqual([2]);
    expect(holders('audit.read')).toEqual([2]);
    expect(holders('lookups.manage')).toEqual([1, 2]);
    expect(holders('calendar.manage')).toEqual([1, 2]);
    expect(holders('report.view')).toEqual([1, 2]);
    expect(holders('call.place')).toEqual([1, 2, 3, 6, 101]);
    expect(holders('women.browse')).toEqual([1, 2, 3, 6, 101]);
    expect(holders('women.favorite')).toEqual([101]);
    expect(holders('setting.request')).toEqual([101]);
    expect(holders('setting.decide')).toEqual([1, 2, 3, 6]);
    expect(holders('user.image.upload')).toEqual([1, 2, 3, 6, 201]);
    expect(holders('account.use')).toEqual([1, 2, 3, 6, 101, 201]);
    expect(refusalStatus(woman, 'women.browse')).toBe(403);
  });

  it('decides a talk: staff every one, a member theirs; nobody writes in a bulk-send history', () => {
    const desk = { kind: 'desk', memberId: 101, manId: null, womanId: null };
    const history = { kind: 'sendmen', memberId: 101, manId: null, womanId: null };
    expect(can(staff6, 'talk.read', { talk: desk })).toBe(true);
    expect(can(man, 'talk.read', { talk: desk })).toBe(true);
    expect(can(woman, 'talk.read', { talk: desk })).toBe(false);
    expect(can(man, 'talk.write', { talk: history })).toBe(false);
    expect(can(staff, 'talk.write', { talk: history })).toBe(false);
  });

  it('decides own vs. someone else’s', () => {
    expect(can(man, 'user.read', { uid: 101 })).toBe(true);
    expect(can(man, 'user.read', { uid: 201 })).toBe(false);
    expect(can(staff6, 'member.profile.read', { uid: 201 })).toBe(true);
    expect(can(man, 'talk.delete', { authorId: 101 })).toBe(true);
    expect(can(man, 'talk.delete', { authorId: 3 })).toBe(false);
    expect(can(staff6, 'talk.delete', { authorId: 3 })).toBe(false);
    expect(can(staff, 'talk.delete', { authorId: 101 })).toBe(true);
    expect(can(staff6, 'talk.unpin', { authorId: 101 })).toBe(true);
    expect(can(woman, 'user.image.upload', { uid: 201 })).toBe(true);
    expect(can(staff6, 'user.image.upload', { uid: 6 })).toBe(false);
    expect(can(staff6, 'user.image.upload', { uid: 201 })).toBe(true);
    expect(can(staff, 'member.manage', { role: 201 })).toBe(true);
    expect(can(staff, 'member.manage', { role: 3 })).toBe(false);
    expect(can(owner, 'member.manage', { role: 3 })).toBe(true);
    expect(can(man, 'content.read', { contentType: 1 })).toBe(true);
    expect(can(man, 'content.read', { contentType: 2 })).toBe(false);
    // A role without a uid may not act on a record.
    expect(can({ role: 101 }, 'user.read', { uid: 101 })).toBe(false);
  });

  it('lets staff call men and men call staff, no other pair', () => {
    expect(mayCall(3, 101)).toBe(true);
    expect(mayCall(101, 6)).toBe(true);
    expect(mayCall(101, 101)).toBe(false);
    expect(mayCall(3, 201)).toBe(false);
    expect(mayCall(201, 3)).toBe(false);
    expect(mayCall(3, 3)).toBe(false);
  });

  it('groups roles for presentation', () => {
    expect([1, 6, 101, 201, 0, 7].map(roleGroup)).toEqual(['staff', 'staff', 'men', 'women', null, null]);
  });
});
