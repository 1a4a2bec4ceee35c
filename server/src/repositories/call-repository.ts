import { ROLE } from '@enishi/contract';
import { and, between, eq } from 'drizzle-orm';
import type { Database } from '../db/client.js';
import { conversations, users } from '../db/schema.js';
import { readingOrder } from './reading-order.js';

/** Someone who may take part in a call, as the other side sees them. */
export interface CallUser {
  uid: number;
  role: number;
  name: string;
  /** The stored profile picture (signed into a URL by the service). */
  image: string | null;
}

/** What voice calls read: the people (product.md §17) and the member's desk talk for the record. */
export class CallRepository {
  constructor(private readonly db: Database) {}

  async findUser(uid: number): Promise<CallUser | null> {
    const [row] = await this.db
      .select({ uid: users.id, role: users.role, name: users.name, image: users.image })
      .from(users)
      .where(eq(users.id, uid));
    return row ?? null;
  }

  /** Every staff member (roles 1-6), in あいうえお order of their reading as every list of people. */
  async staff(): Promise<CallUser[]> {
    return this.db
      .select({ uid: users.id, role: users.role, name: users.name, image: users.image })
      .from(users)
      .where(between(users.role, ROLE.admin, ROLE.staffMenuLimit))
      .orderBy(...readingOrder());
  }

  /** The member's talk with the desk, or null when it is gone with their account. */
  async deskOf(memberId: number): Promise<number | null> {
    const [row] = await this.db
      .select({ id: conversations.id })
      .from(conversations)
      .where(and(eq(conversations.memberId, memberId), eq(conversations.kind, 'desk')));
    return row?.id ?? null;
  }
}
