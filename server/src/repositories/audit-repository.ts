import { desc } from 'drizzle-orm';
import type { Database } from '../db/client.js';
import { auditLog, type AuditRecord, type NewAuditRecord } from '../db/schema-admin.js';
import type { Transaction } from './user-repository.js';

/** Writes an audit row inside the caller's transaction, so the row exists exactly when the change does. */
export async function insertAudit(tx: Transaction, entry: NewAuditRecord): Promise<void> {
  await tx.insert(auditLog).values(entry);
}

export class AuditRepository {
  constructor(private readonly db: Database) {}

  /** Newest first. */
  async page(offset: number, limit: number): Promise<AuditRecord[]> {
    return this.db.select().from(auditLog).orderBy(desc(auditLog.id)).offset(offset).limit(limit);
  }
}
