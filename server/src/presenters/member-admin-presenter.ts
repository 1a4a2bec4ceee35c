import type { AuditRow } from '@enishi/contract';
import type { AuditRecord } from '../db/schema-admin.js';

/** An audit row as the owner sees it. The snapshots never held a password, only what the form shows. */
export function presentAudit(record: AuditRecord): AuditRow {
  return {
    id: record.id,
    date: record.createdAt.toISOString(),
    action: record.action,
    actor: { uid: record.actorId, name: record.actorName },
    target: {
      uid: record.targetId,
      role: record.targetRole,
      name: record.targetName ?? record.after?.name ?? record.before?.name ?? '',
    },
    before: record.before ?? null,
    after: record.after ?? null,
    password_reset: record.passwordReset,
    changes: record.changes ?? null,
  };
}
