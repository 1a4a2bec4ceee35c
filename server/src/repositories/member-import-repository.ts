import { inArray, sql } from 'drizzle-orm';
import type { Database } from '../db/client.js';
import { conversations, users, type NewUserRecord } from '../db/schema.js';
import type { NewAuditRecord } from '../db/schema-admin.js';
import { hasPostgresCode, PG_UNIQUE_VIOLATION } from '../db/errors.js';
import { insertAudit } from './audit-repository.js';

/** Rows per INSERT: 5,000 rows of 9 values stay below PostgreSQL's 65,535 parameters. */
const BATCH = 5_000;

/** SQL of the member import (product.md §2.8): which IDs are taken, and the write of all rows or none. */
export class MemberImportRepository {
  constructor(private readonly db: Database) {}

  /** The login IDs among `loginIds` that are already registered, lower-cased (IDs are one in any case). */
  async takenLoginIds(loginIds: readonly string[]): Promise<Set<string>> {
    const taken = new Set<string>();
    const lower = [...new Set(loginIds.map((id) => id.toLowerCase()))];
    for (let start = 0; start < lower.length; start += BATCH * 2) {
      const rows = await this.db
        .select({ id: sql<string>`lower(${users.loginId})` })
        .from(users)
        .where(inArray(sql`lower(${users.loginId})`, lower.slice(start, start + BATCH * 2)));
      for (const row of rows) taken.add(row.id);
    }
    return taken;
  }

  /**
   * Registers every member with their desk talk (as user-repository.ts `create` does one) and the import's
   * audit row, in one transaction: all or nothing. Multi-row INSERTs keep 10,000 members to seconds. False
   * when an ID was taken meanwhile (nothing is written then).
   */
  async insertAll(members: NewUserRecord[], audit: NewAuditRecord): Promise<boolean> {
    try {
      await this.db.transaction(async (tx) => {
        for (let start = 0; start < members.length; start += BATCH) {
          const created = await tx
            .insert(users)
            .values(members.slice(start, start + BATCH))
            .returning({ id: users.id, createdAt: users.createdAt });
          await tx.insert(conversations).values(
            created.map((user) => ({
              kind: 'desk' as const,
              memberId: user.id,
              lastActivityAt: user.createdAt,
              createdAt: user.createdAt,
            })),
          );
        }
        await insertAudit(tx, audit);
      });
      return true;
    } catch (error) {
      if (hasPostgresCode(error, PG_UNIQUE_VIOLATION)) return false;
      throw error;
    }
  }
}
