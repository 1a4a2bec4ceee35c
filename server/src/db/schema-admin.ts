import { sql } from 'drizzle-orm';
import { bigserial, boolean, check, index, integer, jsonb, pgTable, varchar } from 'drizzle-orm/pg-core';
import { createdAt } from './columns.js';
import type { AuditAction, AuditChanges, AuditSnapshot } from '@enishi/contract';
import { users } from './schema.js';

/*
 * Staff administration. Re-exported by schema.ts, so the migrations and the Database type include it.
 * `users` is only referenced inside callbacks, which keeps the import cycle with schema.ts harmless.
 */

/**
 * Every change staff make to a member or staff record (add, update, delete, image), written in the same
 * transaction as the change: who, what, when, and the record before and after. Never a password or hash.
 */
export const auditLog = pgTable(
  'audit_log',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    // Null once the acting account is deleted; `actor_name` keeps who it was.
    actorId: integer('actor_id').references(() => users.id, { onDelete: 'set null' }),
    actorName: varchar('actor_name', { length: 50 }).notNull(),
    action: varchar('action', { length: 10 }).$type<AuditAction>().notNull(),
    // No foreign key: the record outlives the user it describes (a deletion is logged too).
    targetId: integer('target_id').notNull(),
    targetRole: integer('target_role').notNull(),
    // The record's name at the time, so the log names a deleted person as they were (product.md §2.8).
    targetName: varchar('target_name', { length: 50 }),
    before: jsonb('before').$type<AuditSnapshot>(),
    after: jsonb('after').$type<AuditSnapshot>(),
    // The password was set or changed (its value is never logged).
    passwordReset: boolean('password_reset').notNull().default(false),
    // A profile or photo change: each changed field with its value before and after.
    changes: jsonb('changes').$type<AuditChanges>(),
    createdAt: createdAt(),
  },
  (table) => [
    check(
      'audit_log_action',
      sql`${table.action} in ('add', 'update', 'delete', 'image', 'profile', 'photo', 'sessions', 'security', 'unsend', 'desk', 'calendar', 'import')`,
    ),
    index('audit_log_created_at_idx').on(table.createdAt),
    index('audit_log_target_id_idx').on(table.targetId),
  ],
);

export type AuditRecord = typeof auditLog.$inferSelect;
export type NewAuditRecord = typeof auditLog.$inferInsert;
