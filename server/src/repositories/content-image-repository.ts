import { eq } from 'drizzle-orm';
import type { Database } from '../db/client.js';
import { contentImages } from '../db/schema-content.js';

export class ContentImageRepository {
  constructor(private readonly db: Database) {}

  /** A stored news or banner image; its row goes with its news item or banner, so a found one is live. */
  async findServable(id: string): Promise<{ path: string; mime: string; bytes: number } | null> {
    const rows = await this.db
      .select({ path: contentImages.path, mime: contentImages.mime, bytes: contentImages.bytes })
      .from(contentImages)
      .where(eq(contentImages.id, id))
      .limit(1);
    return rows[0] ?? null;
  }
}
