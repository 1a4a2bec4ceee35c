import type { Scope } from '@enishi/contract';
import { and, asc, count, desc, eq, gt, inArray, notInArray, sql } from 'drizzle-orm';
import type { Database } from '../db/client.js';
import { users } from '../db/schema.js';
import { contentImages, news, newsSeen, type NewsRecord } from '../db/schema-content.js';
import type { NewImage } from './message-repository.js';
import { scopeSql } from '../rules/scope-sql.js';
import type { ContentFilter } from './content-filter.js';

/** A news item with its image ids in order. */
export interface NewsItem extends NewsRecord {
  images: string[];
}

export interface NewsInput {
  type: number;
  title: string;
  body: string;
  now: Date;
}

/** One entry of an edited image list: an image the item already has (by id), or a new one. */
export type NewsImageSlot = { keep: string } | { add: NewImage };

/** How many news items a list returns at most, newest first. */
const LIST_LIMIT = 200;

export class NewsRepository {
  constructor(private readonly db: Database) {}

  /** Stores a news item and its images in one transaction. */
  async create(input: NewsInput & { createdBy: number; images: NewImage[] }): Promise<NewsRecord> {
    return this.db.transaction(async (tx) => {
      const [created] = await tx
        .insert(news)
        .values({
          type: input.type,
          title: input.title,
          body: input.body,
          createdBy: input.createdBy,
          createdAt: input.now,
          updatedAt: input.now,
        })
        .returning();
      if (input.images.length > 0) {
        await tx.insert(contentImages).values(
          input.images.map((image, position) => ({
            ...image,
            newsId: created!.id,
            position,
            createdAt: input.now,
          })),
        );
      }
      return created!;
    });
  }

  /**
   * Replaces a news item's text and image list. `slots` is the new list in order: kept images by id (each
   * must already belong to this item) and new ones. Returns the files of the images dropped, or null when
   * the item does not exist; 'bad-image' when a kept id is not one of its images.
   */
  async update(
    id: number,
    input: NewsInput,
    slots: NewsImageSlot[],
  ): Promise<{ removedPaths: string[] } | null | 'bad-image'> {
    return this.db.transaction(async (tx) => {
      // The row lock keeps two editors of one item from mixing their image lists.
      const [locked] = await tx.select({ id: news.id }).from(news).where(eq(news.id, id)).for('update');
      if (!locked) return null;

      const kept = slots.flatMap((slot) => ('keep' in slot ? [slot.keep] : []));
      if (new Set(kept).size !== kept.length) return 'bad-image';
      if (kept.length > 0) {
        const owned = await tx
          .select({ id: contentImages.id })
          .from(contentImages)
          .where(and(eq(contentImages.newsId, id), inArray(contentImages.id, kept)));
        if (owned.length !== kept.length) return 'bad-image';
      }

      const removed = await tx
        .delete(contentImages)
        .where(
          and(eq(contentImages.newsId, id), kept.length > 0 ? notInArray(contentImages.id, kept) : undefined),
        )
        .returning({ path: contentImages.path });

      for (const [position, slot] of slots.entries()) {
        if ('keep' in slot) {
          await tx.update(contentImages).set({ position }).where(eq(contentImages.id, slot.keep));
        } else {
          await tx.insert(contentImages).values({ ...slot.add, newsId: id, position, createdAt: input.now });
        }
      }
      await tx
        .update(news)
        .set({ type: input.type, title: input.title, body: input.body, updatedAt: input.now })
        .where(eq(news.id, id));
      return { removedPaths: removed.map((row) => row.path) };
    });
  }

  /** Deletes a news item; returns the files of its images, or null when there was no such item. */
  async delete(id: number): Promise<{ removedPaths: string[] } | null> {
    return this.db.transaction(async (tx) => {
      const removed = await tx
        .delete(contentImages)
        .where(eq(contentImages.newsId, id))
        .returning({ path: contentImages.path });
      const deleted = await tx.delete(news).where(eq(news.id, id)).returning({ id: news.id });
      return deleted.length > 0 ? { removedPaths: removed.map((row) => row.path) } : null;
    });
  }

  /** News items, newest first: of one type (or all), or the one with `id`. */
  async list(filter: ContentFilter): Promise<NewsItem[]> {
    const rows = await this.db
      .select()
      .from(news)
      .where(
        and(
          filter.scope === undefined ? undefined : scopeSql(filter.scope, { contentType: news.type }),
          filter.type === undefined ? undefined : eq(news.type, filter.type),
          filter.id === undefined ? undefined : eq(news.id, filter.id),
        ),
      )
      .orderBy(desc(news.id))
      .limit(LIST_LIMIT);
    if (rows.length === 0) return [];

    const images = await this.db
      .select({ id: contentImages.id, newsId: contentImages.newsId })
      .from(contentImages)
      .where(
        inArray(
          contentImages.newsId,
          rows.map((row) => row.id),
        ),
      )
      .orderBy(asc(contentImages.newsId), asc(contentImages.position));
    const byNews = new Map<number, string[]>();
    for (const image of images) {
      const list = byNews.get(image.newsId!) ?? [];
      list.push(image.id);
      byNews.set(image.newsId!, list);
    }
    return rows.map((row) => ({ ...row, images: byNews.get(row.id) ?? [] }));
  }

  /** News in `readable` (content.read's rows for the user) newer than what the user has seen. */
  async unseenCount(userId: number, readable: Scope): Promise<number> {
    const rows = await this.db
      .select({ count: count() })
      .from(news)
      .where(
        and(
          scopeSql(readable, { contentType: news.type }),
          gt(
            news.id,
            sql`coalesce((select ${newsSeen.lastSeenNewsId} from ${newsSeen} where ${newsSeen.userId} = ${userId}), 0)`,
          ),
        ),
      );
    return rows[0]?.count ?? 0;
  }

  /** Moves the user's seen mark up to `newsId` (never back); true when it moved. */
  async markSeen(userId: number, newsId: number): Promise<boolean> {
    const rows = await this.db
      .insert(newsSeen)
      .values({ userId, lastSeenNewsId: newsId })
      .onConflictDoUpdate({
        target: newsSeen.userId,
        set: { lastSeenNewsId: newsId },
        setWhere: sql`${newsSeen.lastSeenNewsId} < ${newsId}`,
      })
      .returning({ userId: newsSeen.userId });
    return rows.length > 0;
  }

  /** Ids of every user with `role`, to tell the members of a group that their news changed. */
  async userIdsWithRole(role: number): Promise<number[]> {
    const rows = await this.db.select({ id: users.id }).from(users).where(eq(users.role, role));
    return rows.map((row) => row.id);
  }
}
