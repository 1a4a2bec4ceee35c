import { and, desc, eq, gte, ilike, lt, or, type SQL } from 'drizzle-orm';
import type { AuditAction } from '@enishi/contract';
import type { Database } from '../db/client.js';
import { auditLog, type AuditRecord, type NewAuditRecord } from '../db/schema-admin.js';
import type { Transaction } from './user-repository.js';

/** Writes an audit row inside the caller's transaction, so the row exists exactly when the change does. */
export async function insertAudit(tx: Transaction, entry: NewAuditRecord): Promise<void> {
  await tx.insert(auditLog).values(entry);
}

/** What the owner narrows the log to (product.md §2.8); every part optional. */
export type AuditFilter = {
  /** Part of the name of who acted or whose record it is. */
  person?: string;
  action?: AuditAction;
  /** From this instant, included. */
  since?: Date;
  /** Up to this instant, excluded. */
  until?: Date;
};

/** A LIKE pattern that matches the text itself anywhere (its %, _ and \ taken literally). */
const containing = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

function conditions(filter: AuditFilter): SQL | undefined {
  const parts: (SQL | undefined)[] = [];
  if (filter.person) {
    const pattern = containing(filter.person);
    parts.push(or(ilike(auditLog.actorName, pattern), ilike(auditLog.targetName, pattern)));
  }
  if (filter.action) parts.push(eq(auditLog.action, filter.action));
  if (filter.since) parts.push(gte(auditLog.createdAt, filter.since));
  if (filter.until) parts.push(lt(auditLog.createdAt, filter.until));
  return parts.length > 0 ? and(...parts) : undefined;
}

export class AuditRepository {
  constructor(private readonly db: Database) {}

  /** Newest first, narrowed by the filter. */
  async page(offset: number, limit: number, filter: AuditFilter = {}): Promise<AuditRecord[]> {
    return this.db
      .select()
      .from(auditLog)
      .where(conditions(filter))
      .orderBy(desc(auditLog.id))
      .offset(offset)
      .limit(limit);
  }
}
