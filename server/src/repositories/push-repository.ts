import { and, between, eq, inArray, or, type SQL } from 'drizzle-orm';
import { ROLE } from '@enishi/contract';
import type { PushSettings } from '@enishi/contract';
import type { Database } from '../db/client.js';
import { pushSettings, pushSubscriptions, users } from '../db/schema.js';
import { broadcastPushes } from '../db/schema-content.js';

export interface StoredSubscription {
  endpoint: string;
  userId: number;
  p256dh: string;
  auth: string;
  /** The session that registered it; the subscription ends with that session. */
  sessionId?: string | null;
}

export interface Recipient extends StoredSubscription {
  role: number;
}

export class PushRepository {
  constructor(private readonly db: Database) {}

  /** Stores the endpoint for the user; one stored for someone else moves to them (a shared phone). */
  async save(subscription: StoredSubscription): Promise<void> {
    const { userId, p256dh, auth, sessionId } = subscription;
    await this.db
      .insert(pushSubscriptions)
      .values(subscription)
      .onConflictDoUpdate({ target: pushSubscriptions.endpoint, set: { userId, p256dh, auth, sessionId } });
  }

  /** Removes the user's own subscription at that endpoint (never someone else's). */
  async remove(userId: number, endpoint: string): Promise<void> {
    await this.db
      .delete(pushSubscriptions)
      .where(and(eq(pushSubscriptions.userId, userId), eq(pushSubscriptions.endpoint, endpoint)));
  }

  /** Whether the endpoint is stored for this user and session (product.md §16.8). */
  async registered(userId: number, sessionId: string, endpoint: string): Promise<boolean> {
    const rows = await this.db
      .select({ id: pushSubscriptions.id })
      .from(pushSubscriptions)
      .where(
        and(
          eq(pushSubscriptions.endpoint, endpoint),
          eq(pushSubscriptions.userId, userId),
          eq(pushSubscriptions.sessionId, sessionId),
        ),
      )
      .limit(1);
    return rows.length > 0;
  }

  /** A push service said the endpoint is gone (404/410). */
  async removeEndpoint(endpoint: string): Promise<void> {
    await this.db.delete(pushSubscriptions).where(eq(pushSubscriptions.endpoint, endpoint));
  }

  /** The subscriptions of an audience: those members, and every staff member when `staff`. */
  async recipients(memberIds: number[], staff: boolean): Promise<Recipient[]> {
    const who: SQL[] = [];
    if (memberIds.length > 0) who.push(inArray(pushSubscriptions.userId, memberIds));
    if (staff) who.push(between(users.role, ROLE.admin, ROLE.staffMenuLimit));
    if (who.length === 0) return [];
    return this.db
      .select({
        endpoint: pushSubscriptions.endpoint,
        userId: pushSubscriptions.userId,
        p256dh: pushSubscriptions.p256dh,
        auth: pushSubscriptions.auth,
        sessionId: pushSubscriptions.sessionId,
        role: users.role,
      })
      .from(pushSubscriptions)
      .innerJoin(users, eq(users.id, pushSubscriptions.userId))
      .where(or(...who));
  }

  /** A bulk send's copy was pushed (the figure 通知, product.md §4.6); its first push counts. */
  async markBroadcastPushed(messageId: number, at: Date): Promise<void> {
    await this.db.insert(broadcastPushes).values({ messageId, pushedAt: at }).onConflictDoNothing();
  }

  /** The stored settings of those users who have any. */
  async settingsOf(userIds: number[]): Promise<Map<number, PushSettings>> {
    if (userIds.length === 0) return new Map();
    const rows = await this.db.select().from(pushSettings).where(inArray(pushSettings.userId, userIds));
    return new Map(rows.map((row) => [row.userId, row.settings as PushSettings]));
  }

  async saveSettings(userId: number, settings: PushSettings): Promise<void> {
    await this.db
      .insert(pushSettings)
      .values({ userId, settings })
      .onConflictDoUpdate({ target: pushSettings.userId, set: { settings } });
  }
}
