import { isMemberRole, ROLE, type Notifications, roleGroup, scope } from '@enishi/contract';
import { sql, type AnyColumn, type SQL } from 'drizzle-orm';
import { conversations, type ConversationKind } from '../db/schema.js';

/*
 * The rules of a talk, each written once (product.md §3, §6): who is in it, who sees and writes in it, which
 * messages are unread for whom and which badge they raise. A rule is a TypeScript predicate for one talk or
 * message and, next to it, the same rule as an SQL fragment for the queries that apply it to many rows.
 * conversation-rules.test.ts runs both over every role, talk and sender and requires them to agree, so a
 * change to one side without the other fails there.
 */

/** Whoever reads or writes: staff (roles 1 to 6, who see every talk) or a member. */
export interface Reader {
  uid: number;
  isStaff: boolean;
}

export const readerOf = (user: { uid: number; role: number }): Reader => ({
  uid: user.uid,
  isStaff: scope(user, 'talk.read').all,
});

/** The seats of a talk: the member of a desk talk, the man and the woman of a group talk. */
export interface Talk {
  kind: ConversationKind;
  memberId: number | null;
  manId: number | null;
  womanId: number | null;
}

/** Where a query finds a talk's fields: the conversations table, or the aliases of a raw statement. */
export type TalkColumns = Record<keyof Talk, SQL | AnyColumn>;
type Value = SQL | AnyColumn | number;

export const TALK_COLUMNS: TalkColumns = {
  kind: conversations.kind,
  memberId: conversations.memberId,
  manId: conversations.manId,
  womanId: conversations.womanId,
};

/** The talk columns of a raw statement's conversations alias (`c.member_id` ...). */
export function talkColumnsOf(alias: string): TalkColumns {
  return {
    kind: sql.raw(`${alias}.kind`),
    memberId: sql.raw(`${alias}.member_id`),
    manId: sql.raw(`${alias}.man_id`),
    womanId: sql.raw(`${alias}.woman_id`),
  };
}

/** Membership: a member is in their desk talk and the group talks they have a seat in. Staff have no seat. */
export function membersOf(talk: Omit<Talk, 'kind'>): number[] {
  return [talk.memberId, talk.manId, talk.womanId].filter((id): id is number => id !== null);
}

export function isInTalk(uid: number, talk: Omit<Talk, 'kind'>): boolean {
  return membersOf(talk).includes(uid);
}

export function isInTalkSql(uid: Value, talk: TalkColumns = TALK_COLUMNS): SQL {
  return sql`(${talk.memberId} = ${uid} or ${talk.manId} = ${uid} or ${talk.womanId} = ${uid})`;
}

/**
 * Visibility: staff belong to every talk; a member only to those they are in. Seeing a talk is what lets
 * one read it and hear from it; anything else is answered as "not found".
 */
export function seesTalk(reader: Reader, talk: Talk): boolean {
  return reader.isStaff || isInTalk(reader.uid, talk);
}

/** `isStaff` is SQL where it differs by row (a batch of writers). */
export function seesTalkSql(
  reader: { uid: Value; isStaff: boolean | SQL },
  talk: TalkColumns = TALK_COLUMNS,
): SQL {
  if (reader.isStaff === true) return sql`true`;
  if (reader.isStaff === false) return isInTalkSql(reader.uid, talk);
  return sql`(${reader.isStaff} or ${isInTalkSql(reader.uid, talk)})`;
}

/** Bulk-send histories (`sendmen`, `sendwomen`): the record of what a bulk send said, read-only. */
export const HISTORY_KINDS: readonly ConversationKind[] = ['sendmen', 'sendwomen'];

export const isHistoryKind = (kind: ConversationKind): boolean => HISTORY_KINDS.includes(kind);

/**
 * Write permission: whoever sees a talk may post in it (staff anywhere, a member in their own talks), except
 * in a bulk-send history: a message there would reach nobody, so only the bulk send itself writes its record
 * there (`MessageBatchRepository.insertBulk`, product.md §12.7).
 */
export function mayWrite(writer: Reader, talk: Talk): boolean {
  return seesTalk(writer, talk) && !isHistoryKind(talk.kind);
}

export function mayWriteSql(
  writer: { uid: Value; isStaff: boolean | SQL },
  talk: TalkColumns = TALK_COLUMNS,
): SQL {
  return sql`(${seesTalkSql(writer, talk)} and ${talk.kind} not in ('sendmen', 'sendwomen'))`;
}

/** A message as the unread rule sees it. The sender (and their role) is null once their account is gone. */
export interface UnreadFacts {
  kind: ConversationKind;
  senderId: number | null;
  senderRole: number | null;
}

/**
 * The unread rule: whose messages raise a reader's unread counts (in the talks the reader sees). Never
 * one's own. Members: everyone else's. Staff: in a desk or group talk only the members' own words (what a
 * colleague or a bulk send wrote there is the desk's own voice, not news for the desk); in staff rooms
 * everyone else's; bulk-send histories never.
 */
export function countsAsUnread(reader: Reader, message: UnreadFacts): boolean {
  if (message.senderId === reader.uid) return false;
  if (!reader.isStaff) return true;
  if (message.kind === 'staffroom') return true;
  return (
    (message.kind === 'desk' || message.kind === 'st') &&
    message.senderRole !== null &&
    isMemberRole(message.senderRole)
  );
}

export function countsAsUnreadSql(reader: Reader, message: Record<keyof UnreadFacts, SQL | AnyColumn>): SQL {
  const notOwn = sql`${message.senderId} is distinct from ${reader.uid}`;
  if (!reader.isStaff) return notOwn;
  return sql`(${notOwn} and (${message.kind} = 'staffroom' or (${message.kind} in ('desk', 'st')
    and ${message.senderRole} in (${ROLE.male}, ${ROLE.female}))))`;
}

/**
 * Whether a message that just arrived raises one of the reader's badges: the unread rule for one message,
 * as the chat socket knows it (the sender's id and role are 0 once the account is gone).
 */
export function raisesBadge(
  reader: { uid: number; role: number },
  message: { from: number; role: number; kind: ConversationKind },
): boolean {
  const gone = message.from === 0;
  return countsAsUnread(readerOf(reader), {
    kind: message.kind,
    senderId: gone ? null : message.from,
    senderRole: gone ? null : message.role,
  });
}

export type Badge = Exclude<keyof Notifications, 'news'>;

/** Badges stop counting here (the web shows 99+ long before); the repository's count stops here too. */
export const UNREAD_COUNT_CAP = 1000;

/**
 * Whose side a desk talk is on for its reader (product.md §3, §12.1): to its member it is the talk with the
 * staff; to staff it is the member's, under the men or the women. Lists, badges, unread maps and push
 * switches all sort desk talks by this.
 */
export function deskSideOf(isStaff: boolean, memberRole: number | null): 'staff' | 'men' | 'women' {
  if (!isStaff) return 'staff';
  return roleGroup(memberRole) === 'women' ? 'women' : 'men';
}

const DESK_BADGES = { staff: 'fromStaff', men: 'fromMen', women: 'fromWomen' } as const;

/** The badge a talk's unread messages count toward (product.md §3); other kinds have none. */
export function badgeOf(isStaff: boolean, kind: ConversationKind, memberRole: number | null): Badge | null {
  if (kind === 'st') return 'setting';
  if (kind === 'staffroom') return 'fromStaff';
  if (kind !== 'desk') return null;
  return DESK_BADGES[deskSideOf(isStaff, memberRole)];
}

/** Adds unread messages of a talk to its badge; the total stops at the cap, as the repository's count does. */
export function addUnread(
  counters: Notifications,
  isStaff: boolean,
  kind: ConversationKind,
  memberRole: number | null,
  count: number,
): void {
  const badge = badgeOf(isStaff, kind, memberRole);
  if (!badge) return;
  const total = counters.fromStaff + counters.setting + counters.fromWomen + counters.fromMen;
  counters[badge] += Math.max(0, Math.min(count, UNREAD_COUNT_CAP - total));
}
