import { bigserial, index, pgTable, timestamp, varchar } from 'drizzle-orm/pg-core';
import type { NoticeKind } from '@enishi/contract';
import { createdAt, ownedBy } from './columns.js';
import { users } from './schema.js';

/*
 * Notices about a person's own account (product.md §11.8): a change to how they log in, or their second step
 * locked after wrong answers. A lock is itself the notice: the second step of an account is refused while a
 * `second_step_locked` notice of the last 15 minutes exists (decision 035). Re-exported by schema.ts.
 */
export const accountNotices = pgTable(
  'account_notices',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    userId: ownedBy('user_id', () => users.id),
    kind: varchar('kind', { length: 30 }).$type<NoticeKind>().notNull(),
    createdAt: createdAt(),
    // Set when the person closes it in the app; a lock still counts for its 15 minutes.
    dismissedAt: timestamp('dismissed_at', { withTimezone: true }),
  },
  (table) => [index('account_notices_user_created_idx').on(table.userId, table.createdAt)],
);
