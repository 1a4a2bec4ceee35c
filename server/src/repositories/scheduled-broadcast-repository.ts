import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { Database } from '../db/client.js';
import { rowsOf } from '../db/raw.js';
import { users } from '../db/schema.js';
import { scheduledBroadcasts, type ScheduledImage } from '../db/schema-content.js';

export interface NewScheduled {
  type: number;
  senderId: number;
  recipients: number[];
  body: string;
  images: ScheduledImage[];
  sendAt: Date;
}

export interface ScheduledRecord {
  id: number;
  type: number;
  senderId: number | null;
  recipients: number[];
  body: string;
  images: ScheduledImage[];
  sendAt: Date;
  state: string;
  claim: string | null;
}

export interface PendingItem {
  id: number;
  type: number;
  body: string;
  images: ScheduledImage[];
  senderName: string | null;
  count: number;
  sendAt: Date;
  state: 'scheduled' | 'sending';
}

/** Raw rows of the claim, as both drivers give them. */
interface ClaimedRow {
  id: number;
  type: number;
  sender_id: number | null;
  recipients: number[] | string;
  body: string;
  images: ScheduledImage[] | string;
  send_at: Date | string;
  state: string;
  claim: string | null;
}

/** PGlite and postgres-js hand an int[] back as an array; a text form `{1,2}` is read all the same. */
const intsOf = (value: number[] | string): number[] =>
  Array.isArray(value)
    ? value.map(Number)
    : value
        .replace(/[{}]/g, '')
        .split(',')
        .filter((part) => part !== '')
        .map(Number);

export class ScheduledBroadcastRepository {
  constructor(private readonly db: Database) {}

  async insert(input: NewScheduled): Promise<number> {
    const [row] = await this.db
      .insert(scheduledBroadcasts)
      .values({ ...input, state: 'scheduled' })
      .returning({ id: scheduledBroadcasts.id });
    return row!.id;
  }

  async find(id: number): Promise<ScheduledRecord | null> {
    const rows = await this.db.select().from(scheduledBroadcasts).where(eq(scheduledBroadcasts.id, id));
    return rows[0] ?? null;
  }

  /** A group's sends still to go, soonest first. */
  async pending(type: number): Promise<PendingItem[]> {
    const rows = await this.db
      .select({
        id: scheduledBroadcasts.id,
        type: scheduledBroadcasts.type,
        body: scheduledBroadcasts.body,
        images: scheduledBroadcasts.images,
        senderName: users.name,
        count: sql<number>`cardinality(${scheduledBroadcasts.recipients})`.mapWith(Number),
        sendAt: scheduledBroadcasts.sendAt,
        state: scheduledBroadcasts.state,
      })
      .from(scheduledBroadcasts)
      .leftJoin(users, eq(users.id, scheduledBroadcasts.senderId))
      .where(
        and(eq(scheduledBroadcasts.type, type), inArray(scheduledBroadcasts.state, ['scheduled', 'sending'])),
      )
      .orderBy(asc(scheduledBroadcasts.sendAt), asc(scheduledBroadcasts.id));
    return rows.map((row) => ({ ...row, state: row.state as PendingItem['state'] }));
  }

  /** Changes a send only while it is `scheduled`; false when it has been claimed, sent or cancelled. */
  async update(id: number, change: { sendAt: Date; body: string }): Promise<boolean> {
    const rows = await this.db
      .update(scheduledBroadcasts)
      .set(change)
      .where(and(eq(scheduledBroadcasts.id, id), eq(scheduledBroadcasts.state, 'scheduled')))
      .returning({ id: scheduledBroadcasts.id });
    return rows.length > 0;
  }

  /** Cancels a send only while it is `scheduled`; its images, for removal, or null when it was too late. */
  async cancel(id: number): Promise<ScheduledImage[] | null> {
    const rows = await this.db
      .update(scheduledBroadcasts)
      .set({ state: 'cancelled' })
      .where(and(eq(scheduledBroadcasts.id, id), eq(scheduledBroadcasts.state, 'scheduled')))
      .returning({ images: scheduledBroadcasts.images });
    return rows[0]?.images ?? null;
  }

  /**
   * Claims the most overdue send that is due at `now` with `claim`, or one whose claim is older than
   * `staleBefore` (its instance died mid-send; the send statement's own check keeps it from going twice).
   * SKIP LOCKED: instances claiming at once each take a different row, none waits for another.
   */
  async claimDue(now: Date, staleBefore: Date, claim: string): Promise<ScheduledRecord | null> {
    const result = await this.db.execute(sql`
      update ${scheduledBroadcasts} set state = 'sending', claim = ${claim}, claimed_at = ${now.toISOString()}
      where id = (
        select id from ${scheduledBroadcasts}
        where (state = 'scheduled' and send_at <= ${now.toISOString()})
          or (state = 'sending' and claimed_at < ${staleBefore.toISOString()})
        order by send_at, id
        limit 1
        for update skip locked
      )
      returning id, type, sender_id, recipients, body, images, send_at, state, claim`);
    const row = rowsOf<ClaimedRow>(result)[0];
    if (!row) return null;
    return {
      id: Number(row.id),
      type: Number(row.type),
      senderId: row.sender_id === null ? null : Number(row.sender_id),
      recipients: intsOf(row.recipients),
      body: row.body,
      images: typeof row.images === 'string' ? (JSON.parse(row.images) as ScheduledImage[]) : row.images,
      sendAt: new Date(row.send_at),
      state: row.state,
      claim: row.claim,
    };
  }

  /** Ends a claimed send that could not go (no recipient left, or its sender is gone). */
  async fail(id: number, claim: string): Promise<void> {
    await this.db
      .update(scheduledBroadcasts)
      .set({ state: 'failed' })
      .where(
        and(
          eq(scheduledBroadcasts.id, id),
          eq(scheduledBroadcasts.state, 'sending'),
          eq(scheduledBroadcasts.claim, claim),
        ),
      );
  }
}
