import { and, eq, isNull } from 'drizzle-orm';
import type { Database } from '../db/client.js';
import { media, messages } from '../db/schema.js';

/** A picture just cleaned and written under DATA_DIR/media, before the row that owns it is stored. */
export interface NewImage {
  id: string;
  path: string;
  mime: string;
  width: number;
  height: number;
  bytes: number;
}

export class MediaRepository {
  constructor(private readonly db: Database) {}

  /** A stored image that belongs to a message still there; null otherwise (never stored, or deleted). */
  async findServable(id: string): Promise<{ path: string; mime: string; bytes: number } | null> {
    const rows = await this.db
      .select({ path: media.path, mime: media.mime, bytes: media.bytes })
      .from(media)
      .innerJoin(messages, eq(messages.id, media.messageId))
      .where(and(eq(media.id, id), isNull(messages.deletedAt)))
      .limit(1);
    return rows[0] ?? null;
  }
}
