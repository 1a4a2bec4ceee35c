import { badRequest } from '../errors.js';
import type { ImageMime } from '../lib/images.js';
import type { ContentImageRepository } from '../repositories/content-image-repository.js';
import type { NewImage } from '../repositories/message-repository.js';
import type { MediaService, ServableImage } from './media-service.js';

/** Formats per kind of content (product.md §5): news JPEG or PNG; banners JPEG, PNG or WebP. */
export const NEWS_IMAGE_FORMATS: readonly ImageMime[] = ['image/jpeg', 'image/png'];
export const BANNER_IMAGE_FORMATS: readonly ImageMime[] = ['image/jpeg', 'image/png', 'image/webp'];

const CONTENT_PREFIX = '/media/content/';

/**
 * Images of news and banners. Cleaning, storing and URL signing are the talk images' own (MediaService),
 * so both kinds share one key, one folder and one set of rules; only the URL path differs, because these
 * images belong to a news item or banner instead of a message.
 */
export class ContentImageService {
  constructor(
    private readonly media: MediaService,
    private readonly images: ContentImageRepository,
  ) {}

  /**
   * Checks the bytes, re-encodes without metadata and stores each image; a format not in `formats` refuses
   * them all (whatever the data URL claimed), and nothing stays on disk.
   */
  async store(dataUrls: string[], formats: readonly ImageMime[], badFormat: string): Promise<NewImage[]> {
    const stored = await this.media.store(dataUrls, 'as-sent');
    if (stored.some((image) => !formats.includes(image.mime as ImageMime))) {
      await this.remove(stored.map((image) => image.path));
      throw badRequest(badFormat);
    }
    return stored;
  }

  remove(relativePaths: string[]): Promise<void> {
    return this.media.remove(relativePaths);
  }

  /** `/media/content/<id>?e=&s=`: signed like talk images, valid for about an hour. */
  sign(ids: string[]): string[] {
    return this.media.sign(ids).map((url) => CONTENT_PREFIX + url.slice('/media/'.length));
  }

  verify(id: string, expiry: string, signature: string): boolean {
    return this.media.verify(id, expiry, signature);
  }

  async find(id: string, expiry: string): Promise<ServableImage | null> {
    return this.media.servable(await this.images.findServable(id), expiry);
  }
}
