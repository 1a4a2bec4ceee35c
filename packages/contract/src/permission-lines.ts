import type { Permission } from './permissions.js';

/**
 * What each permission allows, in one line for docs/permissions.md (server/src/scripts/permission-matrix.ts
 * renders it beside who holds what). Apart from PERMISSIONS so that the web's first loads, which ask `can`
 * and never print these lines, leave them out (e2e/tests/js-budget.test.ts); the type asks for every
 * permission's line.
 */
export const PERMISSION_LINES: Record<Permission, string> = {
  'account.use': 'anyone signed in: their own session, settings, push subscription, code tables, badges',
  'talk.read': 'anyone signed in; a talk: staff every talk, a member the talks they have a seat in',
  'talk.write': 'as talk.read, except in a bulk-send history (nobody writes there)',
  'talk.delete':
    'anyone signed in deletes their own message in a talk they see; talk.delete_any anyone else’s',
  'talk.delete_any': 'roles 1 to 3: delete anyone’s message',
  'talk.unsend':
    'staff and members: take back (送信取消) their own message in a talk they write in, within 24 hours of sending it',
  'talk.unpin': 'in a talk they see: staff any announcement, a member one they pinned',
  'talk.group.create': 'staff (roles 1 to 6): register a group talk; a pair: a man (101) and a woman (201)',
  'talk.desk':
    'members (101, 201): a talk of their own with the desk from the day their account exists; the desk’s auto-reply answers them',
  'broadcast.send': 'staff: bulk sends to men or women',
  'broadcast.read': 'staff: bulk-send histories and their recipients',
  'content.read':
    'anyone signed in; an item: staff every group’s, a member their own group’s (101 men, 201 women)',
  'content.manage': 'staff: news and ad banners',
  'stamp.manage': 'staff (roles 1 to 6): add stamp sets, stop and resume them',
  'user.read': 'anyone signed in; a record: staff anyone’s, a member their own',
  'member.profile.read': 'anyone signed in; a profile: staff any member’s, a member their own',
  'member.profile.update':
    'staff: as member.manage; members (101, 201): their own profile, only the fields the owner made editable',
  'member.manage': 'staff (roles 1 to 6): men’s and women’s records, profiles, photos, applications, notes',
  'staff.manage': 'the owner (role 2): staff records, and whether staff must use a second factor',
  'user.image.upload':
    'staff and women; one’s own picture: roles 1 to 3 and 201; someone else’s: as member.manage',
  'note.delete_any': 'roles 1 to 3: delete a colleague’s note on a member',
  'reply.manage': 'roles 1 to 3: edit the saved replies',
  'desk.use': 'staff: the desk, saved replies, notes on members, the staff menu',
  'desk.status':
    'staff (roles 1 to 6): set a member’s desk talk 未対応, 対応中 or 対応済み, and filter and count the desk by it',
  'desk.assign':
    'staff (roles 1 to 6): take a member’s desk talk (自分が担当) or release their own; roles 1 to 3 hand it to anyone on the desk or take it off them',
  'desk.round_robin': 'admin (1) and owner (2): turn on or off the 担当 in turn for new members',
  'lookups.manage': 'the admin and the owner (roles 1, 2): the club’s own code lists',
  'calendar.manage':
    'the admin and the owner (roles 1, 2): the club’s closing days, which the auto-reply skips',
  'report.view':
    'the admin and the owner (roles 1, 2): the reports (first replies, messages, open talks, settings)',
  'audit.read': 'the owner (role 2): the audit log',
  'women.browse': 'men (101) and staff: the women’s list and cards; a record: a woman’s',
  'women.favorite': 'men (101): their own favourites',
  'member_site.open': 'men (101): the member site and its menu, and the course link on mypage',
  'setting.read': 'staff every request; a man his own; a woman hers once arranged',
  'setting.request': 'men (101): ask for a setting, cancel their own request',
  'setting.decide': 'staff: arrange or decline a setting request',
  'call.place':
    'staff and men (101) take part in voice calls and get TURN credentials; staff call men, men call staff',
  'call.answer':
    'staff: listed with their presence for men to call, rung by a man’s call (all of them once it escalates), and ring a man from his talk',
};
