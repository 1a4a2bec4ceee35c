import { and, asc, desc, eq, inArray, isNotNull, sql } from 'drizzle-orm';
import type { Database } from '../db/client.js';
import { messages, stamps, stampSets, type StampRecord, type StampSetRecord } from '../db/schema.js';
import type { NewImage } from './message-repository.js';

/** A set with its stamps, in the order staff gave them. */
export type StampSetWithStamps = StampSetRecord & { stamps: StampRecord[] };

/** A new stamp: its words and its stored picture. */
export interface NewStamp {
  label: string;
  image: NewImage;
}

/** SQL of stamps (product.md §12.8): the sets, a stamp that may be sent, a sender's recent stamps. */
export class StampRepository {
  constructor(private readonly db: Database) {}

  /** Every set (only those in use with `enabledOnly`), oldest first, each with its stamps. */
  async sets(enabledOnly: boolean): Promise<StampSetWithStamps[]> {
    const sets = await this.db
      .select()
      .from(stampSets)
      .where(enabledOnly ? eq(stampSets.enabled, true) : undefined)
      .orderBy(asc(stampSets.id));
    if (sets.length === 0) return [];
    const rows = await this.db
      .select()
      .from(stamps)
      .where(
        inArray(
          stamps.setId,
          sets.map((set) => set.id),
        ),
      )
      .orderBy(asc(stamps.setId), asc(stamps.position), asc(stamps.id));
    return sets.map((set) => ({ ...set, stamps: rows.filter((row) => row.setId === set.id) }));
  }

  /** A stamp that may be sent now: it exists and its set is in use; null otherwise. */
  async findSendable(id: number): Promise<StampRecord | null> {
    const rows = await this.db
      .select({ stamp: stamps })
      .from(stamps)
      .innerJoin(stampSets, eq(stampSets.id, stamps.setId))
      .where(and(eq(stamps.id, id), eq(stampSets.enabled, true)))
      .limit(1);
    return rows[0]?.stamp ?? null;
  }

  /**
   * The stamps `senderId` sent last, newest first, each once (the partial index messages_sender_stamp_idx
   * reads only the sender's stamp messages).
   */
  async recent(senderId: number, limit: number): Promise<number[]> {
    const rows = await this.db
      .select({ stampId: messages.stampId, last: sql<number>`max(${messages.id})`.as('last') })
      .from(messages)
      .where(and(eq(messages.senderId, senderId), isNotNull(messages.stampId)))
      .groupBy(messages.stampId)
      .orderBy(desc(sql`last`))
      .limit(limit);
    return rows.map((row) => row.stampId!);
  }

  /** A stamp's stored picture by its media id (a stamp stays servable while its set exists). */
  async findServable(imageId: string): Promise<{ path: string; mime: string; bytes: number } | null> {
    const rows = await this.db
      .select({ path: stamps.path, mime: stamps.mime, bytes: stamps.bytes })
      .from(stamps)
      .where(eq(stamps.imageId, imageId))
      .limit(1);
    return rows[0] ?? null;
  }

  /**
   * Adds a set and its stamps in one transaction. With `builtin`, only when no set of that key exists yet
   * (answers null then: another instance seeded it first).
   */
  async createSet(input: {
    name: string;
    builtin: string | null;
    createdBy: number | null;
    stamps: NewStamp[];
  }): Promise<number | null> {
    return this.db.transaction(async (tx) => {
      const [set] = await tx
        .insert(stampSets)
        .values({ name: input.name, builtin: input.builtin, createdBy: input.createdBy })
        .onConflictDoNothing()
        .returning({ id: stampSets.id });
      if (!set) return null;
      await tx.insert(stamps).values(
        input.stamps.map((stamp, position) => ({
          setId: set.id,
          label: stamp.label,
          position,
          imageId: stamp.image.id,
          path: stamp.image.path,
          mime: stamp.image.mime,
          width: stamp.image.width,
          height: stamp.image.height,
          bytes: stamp.image.bytes,
        })),
      );
      return set.id;
    });
  }

  /** Whether a set with this key exists. */
  async hasBuiltin(key: string): Promise<boolean> {
    const rows = await this.db
      .select({ id: stampSets.id })
      .from(stampSets)
      .where(eq(stampSets.builtin, key))
      .limit(1);
    return rows.length > 0;
  }

  /** Stops or resumes a set; false when there is no such set. */
  async setEnabled(id: number, enabled: boolean): Promise<boolean> {
    const rows = await this.db
      .update(stampSets)
      .set({ enabled })
      .where(eq(stampSets.id, id))
      .returning({ id: stampSets.id });
    return rows.length > 0;
  }
}
