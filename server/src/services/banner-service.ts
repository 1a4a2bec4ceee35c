import { type BannerRow, type ContentType, jaMember, can } from '@enishi/contract';
import { forbidden, notFound } from '../errors.js';
import type { Clock } from '../lib/clock.js';
import { presentBanner } from '../presenters/banner-presenter.js';
import type { BannerRepository } from '../repositories/banner-repository.js';
import { BANNER_IMAGE_FORMATS, type ContentImageService } from './content-image-service.js';
import { readableContent, type ContentQuery } from './content-reading.js';
import type { Actor } from './session-service.js';

/** Ad banners under the members' home menu, one set per group (product.md §3, §4). Staff manage them. */
export class BannerService {
  constructor(
    private readonly banners: BannerRepository,
    private readonly images: ContentImageService,
    private readonly clock: Clock,
  ) {}

  async add(actor: Actor, input: { type: ContentType; url: string; image: string }): Promise<{ id: number }> {
    if (!can(actor, 'content.manage')) throw forbidden();
    const [image] = await this.images.store([input.image], BANNER_IMAGE_FORMATS, jaMember.banners.badImage);
    try {
      const created = await this.banners.create({
        type: input.type,
        // The parsed form: what the browser will open, with spaces and the like escaped.
        url: new URL(input.url).href,
        createdBy: actor.uid,
        image: image!,
        now: new Date(this.clock()),
      });
      return { id: created.id };
    } catch (error) {
      await this.images.remove([image!.path]);
      throw error;
    }
  }

  async delete(actor: Actor, id: number): Promise<void> {
    if (!can(actor, 'content.manage')) throw forbidden();
    const result = await this.banners.delete(id);
    if (!result) throw notFound();
    await this.images.remove(result.removedPaths);
  }

  /** The banners the actor may read (`readableContent`). */
  async get(actor: Actor, query: ContentQuery): Promise<BannerRow[]> {
    const items = await readableContent(actor, query, (filter) => this.banners.list(filter));
    return items.map((item) => presentBanner(item, (id) => this.images.sign([id])[0]!));
  }
}
