import { and, between, count, eq, inArray, isNull, sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { ROLE, type DeskStatus } from '@enishi/contract';
import type { Database } from '../db/client.js';
import { conversations, users } from '../db/schema.js';
import { clubSettings } from '../db/schema-profile.js';
import type { NewAuditRecord } from '../db/schema-admin.js';
import { insertAudit } from './audit-repository.js';
import { readingOrder } from './reading-order.js';
import type { Transaction } from './user-repository.js';

/** A desk talk's status and 担当, with its member (product.md §2.6). */
export interface DeskTalkRow {
  conversationId: number;
  memberId: number;
  memberRole: number;
  memberName: string;
  status: DeskStatus;
  assignee: { uid: number; name: string } | null;
}

/** What a change did: the talk as it was and as it is now (the same when nothing changed). */
export interface DeskTalkChange {
  before: DeskTalkRow;
  after: DeskTalkRow;
}

/** The audit row of a change, made by the service from before and after. */
export type DeskAudit = (change: DeskTalkChange) => NewAuditRecord | null;

/** The club setting that turns on 担当 in turn for new members, and where the turn stands. */
const ROUND_ROBIN_KEY = 'desk_round_robin';
const ROUND_ROBIN_LAST_KEY = 'desk_round_robin_last';
/** Two assignments in turn at once take turns, not the same staff member. */
const ROUND_ROBIN_LOCK = 'enishi.desk.round_robin';

const assignee = users;
/** A desk talk's 担当, joined beside its member in the room lists (conversation-repository.ts). */
export const deskAssignee = alias(users, 'assignee');

/** Staff's desk lists (product.md §2.6): by status, by 担当 (null: none), with unread messages only. */
export interface DeskListFilter {
  deskStatus?: DeskStatus;
  assigneeId?: number | null;
  unreadOnly?: boolean;
}

/** A room list row's desk talk status and 担当 (product.md §2.6). */
export interface DeskListColumns {
  deskStatus: DeskStatus;
  assigneeId: number | null;
  assigneeName: string | null;
}

/** The desk list's filters as conditions; `unread` is the viewer's unread count. */
export function deskListConditions(filter: DeskListFilter, unread: SQL<number>): SQL[] {
  const conditions: SQL[] = [];
  if (filter.deskStatus) conditions.push(eq(conversations.deskStatus, filter.deskStatus));
  if (filter.assigneeId === null) conditions.push(isNull(conversations.deskAssigneeId));
  else if (filter.assigneeId !== undefined)
    conditions.push(eq(conversations.deskAssigneeId, filter.assigneeId));
  if (filter.unreadOnly) conditions.push(sql`${unread} > 0`);
  return conditions;
}

const isStaff = between(users.role, ROLE.admin, ROLE.staffMenuLimit);

export class DeskTalkRepository {
  constructor(private readonly db: Database) {}

  /** The desk talk with its member and 担当, locked for the change in `tx` when `lock`. */
  private async read(tx: Transaction | Database, conversationId: number, lock: boolean) {
    const query = tx
      .select({
        conversationId: conversations.id,
        memberId: conversations.memberId,
        status: conversations.deskStatus,
        assigneeId: conversations.deskAssigneeId,
      })
      .from(conversations)
      .where(and(eq(conversations.id, conversationId), eq(conversations.kind, 'desk')))
      .limit(1)
      .$dynamic();
    const talk = await (lock ? query.for('update') : query);
    const row = talk[0];
    if (!row || row.memberId === null) return null;
    const people = await tx
      .select({ id: users.id, name: users.name, role: users.role })
      .from(users)
      .where(inArray(users.id, [row.memberId, ...(row.assigneeId !== null ? [row.assigneeId] : [])]));
    const member = people.find((person) => person.id === row.memberId);
    if (!member) return null;
    const staff = people.find((person) => person.id === row.assigneeId);
    return {
      conversationId: row.conversationId,
      memberId: member.id,
      memberRole: member.role,
      memberName: member.name,
      status: row.status,
      assignee: staff ? { uid: staff.id, name: staff.name } : null,
    } satisfies DeskTalkRow;
  }

  async find(conversationId: number): Promise<DeskTalkRow | null> {
    return this.db.transaction((tx) => this.read(tx, conversationId, false));
  }

  /**
   * Changes a desk talk's status or 担当 under its row lock, so two staff changing it at once leave the later
   * change standing, each with its own audit row (written in the same transaction). Null: no such desk talk;
   * `before` equal to `after` when nothing changed (no audit row then).
   */
  async change(
    conversationId: number,
    set: { status?: DeskStatus; assigneeId?: number | null },
    audit: DeskAudit,
  ): Promise<DeskTalkChange | null> {
    return this.db.transaction(async (tx) => {
      const before = await this.read(tx, conversationId, true);
      if (!before) return null;
      const same =
        (set.status === undefined || set.status === before.status) &&
        (set.assigneeId === undefined || set.assigneeId === (before.assignee?.uid ?? null));
      if (same) return { before, after: before };
      await tx
        .update(conversations)
        .set({
          ...(set.status !== undefined ? { deskStatus: set.status } : {}),
          ...(set.assigneeId !== undefined ? { deskAssigneeId: set.assigneeId } : {}),
        })
        .where(eq(conversations.id, conversationId));
      const after = (await this.read(tx, conversationId, false))!;
      const entry = audit({ before, after });
      if (entry) await insertAudit(tx, entry);
      return { before, after };
    });
  }

  /**
   * A member wrote: their talk, if 対応済み, is 未対応 again (product.md §2.6). One conditional update, so a
   * reopening happens once however many messages arrive together; null when the talk was not 対応済み.
   */
  async reopen(conversationId: number, audit: DeskAudit): Promise<DeskTalkChange | null> {
    return this.db.transaction(async (tx) => {
      const before = await this.read(tx, conversationId, true);
      if (!before || before.status !== 'done') return null;
      await tx.update(conversations).set({ deskStatus: 'open' }).where(eq(conversations.id, conversationId));
      const after: DeskTalkRow = { ...before, status: 'open' };
      const entry = audit({ before, after });
      if (entry) await insertAudit(tx, entry);
      return { before, after };
    });
  }

  /** Desk talks by status (members' talks only), and those of `uid` not yet 対応済み. */
  async counts(uid: number): Promise<Record<DeskStatus, number> & { mine: number }> {
    const rows = await this.db
      .select({
        status: conversations.deskStatus,
        count: count(),
        mine: sql<number>`count(*) filter (where ${conversations.deskAssigneeId} = ${uid} and ${conversations.deskStatus} <> 'done')`.mapWith(
          Number,
        ),
      })
      .from(conversations)
      .where(eq(conversations.kind, 'desk'))
      .groupBy(conversations.deskStatus);
    const counts = { open: 0, pending: 0, done: 0, mine: 0 };
    for (const row of rows) {
      counts[row.status] = row.count;
      counts.mine += row.mine;
    }
    return counts;
  }

  /** Who may be 担当: every staff account, in reading order (product.md §5.7). */
  async staff(): Promise<{ uid: number; name: string }[]> {
    return this.db
      .select({ uid: assignee.id, name: assignee.name })
      .from(assignee)
      .where(isStaff)
      .orderBy(...readingOrder());
  }

  async isStaff(uid: number): Promise<boolean> {
    const rows = await this.db
      .select({ id: users.id })
      .from(users)
      .where(and(eq(users.id, uid), isStaff))
      .limit(1);
    return rows.length > 0;
  }

  async roundRobin(): Promise<boolean> {
    const rows = await this.db
      .select({ value: clubSettings.value })
      .from(clubSettings)
      .where(eq(clubSettings.key, ROUND_ROBIN_KEY));
    return rows[0]?.value === true;
  }

  async setRoundRobin(enabled: boolean, by: number, now: Date): Promise<void> {
    await this.db
      .insert(clubSettings)
      .values({ key: ROUND_ROBIN_KEY, value: enabled, updatedBy: by, updatedAt: now })
      .onConflictDoUpdate({
        target: clubSettings.key,
        set: { value: enabled, updatedBy: by, updatedAt: now },
      });
  }

  /**
   * The staff member whose turn it is (the first by id after the last one given a member in turn, round
   * and round), or null without staff. The turn moves on in the same transaction, under a lock, so members
   * added at once go to different staff.
   */
  async nextInTurn<T>(give: (tx: Transaction, uid: number) => Promise<T>): Promise<T | null> {
    return this.db.transaction(async (tx) => {
      await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${ROUND_ROBIN_LOCK}))`);
      const last = await tx
        .select({ value: clubSettings.value })
        .from(clubSettings)
        .where(eq(clubSettings.key, ROUND_ROBIN_LAST_KEY));
      const lastId = typeof last[0]?.value === 'number' ? last[0].value : 0;
      const staff = await tx.select({ id: users.id }).from(users).where(isStaff).orderBy(users.id);
      if (staff.length === 0) return null;
      const next = (staff.find((person) => person.id > lastId) ?? staff[0]!).id;
      await tx
        .insert(clubSettings)
        .values({ key: ROUND_ROBIN_LAST_KEY, value: next, updatedBy: null })
        .onConflictDoUpdate({ target: clubSettings.key, set: { value: next } });
      return give(tx, next);
    });
  }

  /** The member's desk talk, given to `uid` inside the turn's transaction (a new talk has no 担当 yet). */
  async assignInTurn(
    tx: Transaction,
    memberId: number,
    uid: number,
    audit: DeskAudit,
  ): Promise<DeskTalkChange | null> {
    const talk = await tx
      .select({ id: conversations.id })
      .from(conversations)
      .where(and(eq(conversations.memberId, memberId), eq(conversations.kind, 'desk')))
      .limit(1);
    if (!talk[0]) return null;
    const before = await this.read(tx, talk[0].id, true);
    if (!before || before.assignee) return null;
    await tx.update(conversations).set({ deskAssigneeId: uid }).where(eq(conversations.id, talk[0].id));
    const after = (await this.read(tx, talk[0].id, false))!;
    const entry = audit({ before, after });
    if (entry) await insertAudit(tx, entry);
    return { before, after };
  }
}
