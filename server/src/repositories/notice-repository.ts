import { and, asc, desc, eq, gt, isNull } from 'drizzle-orm';
import type { NoticeKind } from '@enishi/contract';
import type { Database } from '../db/client.js';
import { accountNotices } from '../db/schema.js';
import type { NewAuditRecord } from '../db/schema-admin.js';
import { insertAudit } from './audit-repository.js';

/** Notices shown at most (the newest): the rest wait until these are dismissed. */
const NOTICES_SHOWN = 20;

/** Notices about a person's own account, and the second step's lock (product.md §11.8): SQL only. */
export class NoticeRepository {
  constructor(private readonly db: Database) {}

  async add(userId: number, kind: NoticeKind, now: Date): Promise<void> {
    await this.db.insert(accountNotices).values({ userId, kind, createdAt: now });
  }

  /** A change to how someone logs in: its audit row and its notice in one transaction. */
  async addWithAudit(userId: number, kind: NoticeKind, now: Date, audit: NewAuditRecord): Promise<void> {
    await this.db.transaction(async (tx) => {
      await tx.insert(accountNotices).values({ userId, kind, createdAt: now });
      await insertAudit(tx, audit);
    });
  }

  /** When notices of this kind were made after `since` (dismissed or not), oldest first. */
  async madeSince(userId: number, kind: NoticeKind, since: Date): Promise<Date[]> {
    const rows = await this.db
      .select({ createdAt: accountNotices.createdAt })
      .from(accountNotices)
      .where(
        and(
          eq(accountNotices.userId, userId),
          eq(accountNotices.kind, kind),
          gt(accountNotices.createdAt, since),
        ),
      )
      .orderBy(asc(accountNotices.createdAt))
      .limit(100);
    return rows.map((row) => row.createdAt);
  }

  /** The person's notices not yet dismissed, newest first. */
  async open(userId: number) {
    return this.db
      .select({ id: accountNotices.id, kind: accountNotices.kind, createdAt: accountNotices.createdAt })
      .from(accountNotices)
      .where(and(eq(accountNotices.userId, userId), isNull(accountNotices.dismissedAt)))
      .orderBy(desc(accountNotices.createdAt), desc(accountNotices.id))
      .limit(NOTICES_SHOWN);
  }

  /** Dismisses one of the person's own notices; another's id changes nothing. */
  async dismiss(userId: number, id: number, now: Date): Promise<void> {
    await this.db
      .update(accountNotices)
      .set({ dismissedAt: now })
      .where(and(eq(accountNotices.userId, userId), eq(accountNotices.id, id)));
  }
}
