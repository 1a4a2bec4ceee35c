import {
  roleOfContentType,
  storedImageId,
  type ContentType,
  type NewsRow,
  can,
  jaMember,
} from '@enishi/contract';
import { badRequest, forbidden, notFound } from '../errors.js';
import type { Clock } from '../lib/clock.js';
import { presentNews } from '../presenters/news-presenter.js';
import type { Delivery } from '../bus/delivery.js';
import type { NewImage } from '../repositories/message-repository.js';
import type { NewsImageSlot, NewsRepository } from '../repositories/news-repository.js';
import { NEWS_IMAGE_FORMATS, type ContentImageService } from './content-image-service.js';
import { readableContent, type ContentQuery } from './content-reading.js';
import type { Actor } from './session-service.js';

export interface NewsFields {
  type: ContentType;
  title: string;
  body: string;
}

const isDataUrl = (value: string) => value.startsWith('data:');

/**
 * News for the men's or the women's group (product.md §3, §6). Staff manage it and read all of it; a member reads
 * only their group's, and reading the list marks it seen (the `news` badge counts what is newer).
 */
export class NewsService {
  constructor(
    private readonly news: NewsRepository,
    private readonly images: ContentImageService,
    private readonly delivery: Delivery,
    private readonly clock: Clock,
  ) {}

  async add(actor: Actor, input: NewsFields & { images: string[] }): Promise<{ id: number }> {
    if (!can(actor, 'content.manage')) throw forbidden();
    const stored = await this.images.store(input.images, NEWS_IMAGE_FORMATS, jaMember.news.badImage);
    let id: number;
    try {
      ({ id } = await this.news.create({
        ...input,
        createdBy: actor.uid,
        now: new Date(this.clock()),
        images: stored,
      }));
    } catch (error) {
      await this.images.remove(stored.map((image) => image.path));
      throw error;
    }
    const ids = await this.news.userIdsWithRole(roleOfContentType(input.type));
    // One event for the group: their sockets recompute the counters, and it is what a push tells the away.
    await this.delivery.toAudience({ memberIds: ids, staff: false }, 'news.published', {
      title: input.title,
    });
    return { id };
  }

  /**
   * Saves an edited item. `images` is the new list in order: URLs (or ids) of images it already has, and data
   * URLs of new ones; an image left out is deleted.
   */
  async update(actor: Actor, id: number, input: NewsFields & { images: string[] }): Promise<{ id: number }> {
    if (!can(actor, 'content.manage')) throw forbidden();
    const [before] = await this.news.list({ id });
    if (!before) throw notFound();

    const stored = await this.images.store(
      input.images.filter(isDataUrl),
      NEWS_IMAGE_FORMATS,
      jaMember.news.badImage,
    );
    let next = 0;
    const slots: NewsImageSlot[] = input.images.map((image) =>
      isDataUrl(image) ? { add: stored[next++] as NewImage } : { keep: storedImageId(image) },
    );
    let result;
    try {
      result = await this.news.update(id, { ...input, now: new Date(this.clock()) }, slots);
    } catch (error) {
      await this.images.remove(stored.map((image) => image.path));
      throw error;
    }
    if (result === null || result === 'bad-image') {
      await this.images.remove(stored.map((image) => image.path));
      throw result === null ? notFound() : badRequest();
    }
    await this.images.remove(result.removedPaths);
    await this.tellGroup(before.type);
    if (input.type !== before.type) await this.tellGroup(input.type);
    return { id };
  }

  async delete(actor: Actor, id: number): Promise<void> {
    if (!can(actor, 'content.manage')) throw forbidden();
    const [before] = await this.news.list({ id });
    const result = await this.news.delete(id);
    if (!result) throw notFound();
    await this.images.remove(result.removedPaths);
    if (before) await this.tellGroup(before.type);
  }

  /**
   * The news the actor may read (`readableContent`), newest first. A member's list marks it seen; those who
   * manage the news (staff) have no `news` badge.
   */
  async get(actor: Actor, query: ContentQuery): Promise<NewsRow[]> {
    const items = await readableContent(actor, query, (filter) => this.news.list(filter));
    if (
      !can(actor, 'content.manage') &&
      query.id === undefined &&
      items[0] &&
      (await this.news.markSeen(actor.uid, items[0].id))
    ) {
      await this.delivery.toUser(actor.uid, 'notifications.changed', {});
    }
    return items.map((item) => presentNews(item, (ids) => this.images.sign(ids)));
  }

  /** The group's badges may have changed: their open sockets recompute the counters. */
  private async tellGroup(type: number): Promise<void> {
    const ids = await this.news.userIdsWithRole(roleOfContentType(type));
    await Promise.all(ids.map((uid) => this.delivery.toUser(uid, 'notifications.changed', {})));
  }
}
