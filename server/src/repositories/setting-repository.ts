import { and, asc, count, desc, eq, inArray, or, sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Scope, SettingStatus } from '@enishi/contract';
import type { Database } from '../db/client.js';
import { scopeSql, type ScopeColumns } from '../rules/scope-sql.js';
import { conversations, settingRequests, users, type SettingRequestRecord } from '../db/schema.js';
import type { NewAuditRecord } from '../db/schema-admin.js';
import { insertAudit } from './audit-repository.js';
import type { Transaction } from './user-repository.js';

const man = alias(users, 'man');
const woman = alias(users, 'woman');

/** A request with the names of the pair, as lists show it. */
export interface SettingRequestRow extends SettingRequestRecord {
  manName: string | null;
  womanName: string | null;
}

/** Which requests a list holds: the reader's scope (setting.read), narrowed to one member's or one state. */
export interface SettingListQuery {
  scope: Scope;
  member?: number | undefined;
  status?: SettingStatus | undefined;
}

/** Where a setting request's scope fields are (setting.read). */
const SETTING_COLUMNS: ScopeColumns = {
  manId: settingRequests.manId,
  womanId: settingRequests.womanId,
  status: settingRequests.status,
};

/** The woman asked for: a member here, or one only the enquiry service knows (decision 023). */
export type AskedWoman = { uid: number } | { enquiryId: number; name: string };

export interface NewSettingRequest {
  manId: number;
  woman: AskedWoman;
  preferred: [Date, Date, Date];
  note: string;
  now: Date;
}

/** What a decision changes; it applies only while the request is still `requested`. */
export interface SettingDecision {
  status: Exclude<SettingStatus, 'requested'>;
  slot?: number;
  place?: string;
  reason?: string;
  decidedBy: number;
  now: Date;
}

/** Whose confirmed settings to read: men, women here, women of the enquiry service (decision 023). */
export interface SettingPeople {
  men: number[];
  women: number[];
  enquiryWomen: number[];
}

/** The instant of a request's chosen slot (its third while none is chosen; the rule counts confirmed ones only). */
const slotAt = sql`case ${settingRequests.slot} when 1 then ${settingRequests.preferred1} when 2 then ${settingRequests.preferred2} else ${settingRequests.preferred3} end`;

/**
 * What a confirmation checks under its lock: the confirmed settings of the pair around the chosen slot, read
 * inside the same transaction; it throws to refuse, or returns the audit row to write with the decision (or null).
 */
export interface ArrangeCheck {
  people: SettingPeople;
  from: Date;
  to: Date;
  verdict: (confirmed: SettingRequestRow[]) => NewAuditRecord | null;
}

export class SettingRepository {
  constructor(private readonly db: Database) {}

  async create(input: NewSettingRequest): Promise<SettingRequestRecord> {
    const [preferred1, preferred2, preferred3] = input.preferred;
    const rows = await this.db
      .insert(settingRequests)
      .values({
        manId: input.manId,
        ...('uid' in input.woman
          ? { womanId: input.woman.uid }
          : { enquiryWomanId: input.woman.enquiryId, enquiryWomanName: input.woman.name }),
        preferred1,
        preferred2,
        preferred3,
        note: input.note,
        createdAt: input.now,
      })
      .returning();
    return rows[0]!;
  }

  private selectRows(db: Database | Transaction = this.db) {
    return db
      .select({ request: settingRequests, manName: man.name, womanName: woman.name })
      .from(settingRequests)
      .leftJoin(man, eq(man.id, settingRequests.manId))
      .leftJoin(woman, eq(woman.id, settingRequests.womanId));
  }

  async findById(id: number): Promise<SettingRequestRow | null> {
    const rows = await this.selectRows().where(eq(settingRequests.id, id)).limit(1);
    return rows[0] ? flatten(rows[0]) : null;
  }

  /** Newest first (ids only grow), `limit` rows from `offset`. */
  async list({ scope, member, status }: SettingListQuery, offset: number, limit: number) {
    const where: SQL[] = [scopeSql(scope, SETTING_COLUMNS)];
    if (member !== undefined) {
      where.push(or(eq(settingRequests.manId, member), eq(settingRequests.womanId, member))!);
    }
    if (status) where.push(eq(settingRequests.status, status));
    const rows = await this.selectRows()
      .where(and(...where))
      .orderBy(desc(settingRequests.id))
      .offset(offset)
      .limit(limit);
    return rows.map(flatten);
  }

  /**
   * The requests of any of `people` whose chosen slot (or, while none is, third slot) lies between `from` and
   * `to` (both included): only a narrowing by people and time; which of them count, confirmed ones, and whether
   * they overlap is the contract's rule alone (product.md §18.5).
   */
  async settingsNear(
    people: SettingPeople,
    from: Date,
    to: Date,
    db: Database | Transaction = this.db,
  ): Promise<SettingRequestRow[]> {
    const whose: SQL[] = [];
    if (people.men.length > 0) whose.push(inArray(settingRequests.manId, people.men));
    if (people.women.length > 0) whose.push(inArray(settingRequests.womanId, people.women));
    if (people.enquiryWomen.length > 0)
      whose.push(inArray(settingRequests.enquiryWomanId, people.enquiryWomen));
    if (whose.length === 0) return [];
    const rows = await this.selectRows(db)
      .where(
        and(
          or(...whose),
          sql`${slotAt} between ${from.toISOString()}::timestamptz and ${to.toISOString()}::timestamptz`,
        ),
      )
      .orderBy(asc(settingRequests.id));
    return rows.map(flatten);
  }

  /** Requests waiting for staff: the setting badge of the staff talk list. */
  async countRequested(): Promise<number> {
    const rows = await this.db
      .select({ n: count() })
      .from(settingRequests)
      .where(eq(settingRequests.status, 'requested'));
    return rows[0]?.n ?? 0;
  }

  /**
   * Moves a request out of `requested` (optionally only the man's own); null when it is not (any longer)
   * requested, so two staff deciding at once decide it once.
   */
  async decide(id: number, decision: SettingDecision, manId?: number): Promise<SettingRequestRecord | null> {
    return this.decideIn(this.db, id, decision, manId);
  }

  /**
   * Confirms a request as `decide` does, after `check` looked at the pair's confirmed settings: one lock for
   * every confirmation, so two staff confirming overlapping settings at once see each other's (product.md
   * §18.5); the audit row it returns is written in the same transaction as the decision.
   */
  async arrange(
    id: number,
    decision: SettingDecision,
    check: ArrangeCheck,
  ): Promise<SettingRequestRecord | null> {
    return this.db.transaction(async (tx) => {
      await tx.execute(sql`select pg_advisory_xact_lock(hashtext('enishi.setting.arrange'))`);
      const audit = check.verdict(await this.settingsNear(check.people, check.from, check.to, tx));
      const decided = await this.decideIn(tx, id, decision);
      if (decided && audit) await insertAudit(tx, audit);
      return decided;
    });
  }

  private async decideIn(
    db: Database | Transaction,
    id: number,
    decision: SettingDecision,
    manId?: number,
  ): Promise<SettingRequestRecord | null> {
    const rows = await db
      .update(settingRequests)
      .set({
        status: decision.status,
        slot: decision.slot ?? null,
        place: decision.place ?? null,
        reason: decision.reason ?? null,
        decidedBy: decision.decidedBy,
        decidedAt: decision.now,
      })
      .where(
        and(
          eq(settingRequests.id, id),
          eq(settingRequests.status, 'requested'),
          manId === undefined ? undefined : eq(settingRequests.manId, manId),
        ),
      )
      .returning();
    return rows[0] ?? null;
  }

  async setConversation(id: number, conversationId: number): Promise<void> {
    await this.db.update(settingRequests).set({ conversationId }).where(eq(settingRequests.id, id));
  }

  /** The pair's group talk, the oldest if staff made several. */
  async findGroupTalk(manId: number, womanId: number): Promise<number | null> {
    const rows = await this.db
      .select({ id: conversations.id })
      .from(conversations)
      .where(
        and(eq(conversations.kind, 'st'), eq(conversations.manId, manId), eq(conversations.womanId, womanId)),
      )
      .orderBy(asc(conversations.id))
      .limit(1);
    return rows[0]?.id ?? null;
  }

  /** A member's desk talk with the staff. */
  async findDeskTalk(memberId: number): Promise<number | null> {
    const rows = await this.db
      .select({ id: conversations.id })
      .from(conversations)
      .where(and(eq(conversations.kind, 'desk'), eq(conversations.memberId, memberId)))
      .limit(1);
    return rows[0]?.id ?? null;
  }
}

function flatten(row: { request: SettingRequestRecord; manName: string | null; womanName: string | null }) {
  return {
    ...row.request,
    manName: row.manName,
    womanName: row.request.enquiryWomanName ?? row.womanName,
  };
}
