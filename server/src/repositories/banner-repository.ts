import { and, asc, eq } from 'drizzle-orm';
import type { Database } from '../db/client.js';
import { banners, contentImages, type BannerRecord } from '../db/schema-content.js';
import type { NewImage } from './message-repository.js';
import { scopeSql } from '../rules/scope-sql.js';
import type { ContentFilter } from './content-filter.js';

/** A banner with the id of its image. */
export interface BannerItem extends BannerRecord {
  imageId: string;
}

export class BannerRepository {
  constructor(private readonly db: Database) {}

  /** Stores a banner and its image in one transaction. */
  async create(input: {
    type: number;
    url: string;
    createdBy: number;
    image: NewImage;
    now: Date;
  }): Promise<BannerRecord> {
    return this.db.transaction(async (tx) => {
      const [created] = await tx
        .insert(banners)
        .values({ type: input.type, url: input.url, createdBy: input.createdBy, createdAt: input.now })
        .returning();
      await tx.insert(contentImages).values({ ...input.image, bannerId: created!.id, createdAt: input.now });
      return created!;
    });
  }

  /** Deletes a banner; returns its type and image file, or null when there was no such banner. */
  async delete(id: number): Promise<{ type: number; removedPaths: string[] } | null> {
    return this.db.transaction(async (tx) => {
      const removed = await tx
        .delete(contentImages)
        .where(eq(contentImages.bannerId, id))
        .returning({ path: contentImages.path });
      const [deleted] = await tx.delete(banners).where(eq(banners.id, id)).returning({ type: banners.type });
      return deleted ? { type: deleted.type, removedPaths: removed.map((row) => row.path) } : null;
    });
  }

  /** Banners in the order they were added: of one type (or all), or the one with `id`. */
  async list(filter: ContentFilter): Promise<BannerItem[]> {
    return this.db
      .select({
        id: banners.id,
        type: banners.type,
        url: banners.url,
        createdBy: banners.createdBy,
        createdAt: banners.createdAt,
        imageId: contentImages.id,
      })
      .from(banners)
      .innerJoin(contentImages, eq(contentImages.bannerId, banners.id))
      .where(
        and(
          filter.scope === undefined ? undefined : scopeSql(filter.scope, { contentType: banners.type }),
          filter.type === undefined ? undefined : eq(banners.type, filter.type),
          filter.id === undefined ? undefined : eq(banners.id, filter.id),
        ),
      )
      .orderBy(asc(banners.id));
  }
}
