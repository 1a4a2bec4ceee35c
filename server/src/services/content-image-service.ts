import { mkdir, rename, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { badRequest } from '../errors.js';
import { BANNER_WIDTHS, webpVariant, type ImageMime } from '../lib/images.js';
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

  /** Removes stored images and the variants made of them. */
  remove(relativePaths: string[]): Promise<void> {
    return this.media.remove(relativePaths.flatMap((relative) => [relative, ...variantPaths(relative)]));
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

  /**
   * The image scaled to one of BANNER_WIDTHS as WebP, made on the first request and kept beside the original
   * (media/<xx>/variants/), served through the same signed URL with `&w=<width>`. Null when the image is gone.
   */
  async variant(id: string, expiry: string, width: number): Promise<ServableImage | null> {
    if (!(BANNER_WIDTHS as readonly number[]).includes(width)) return null;
    const original = await this.find(id, expiry);
    if (!original) return null;
    const file = variantFile(original.file, width);
    const existing = await stat(file).catch(() => null);
    if (!existing) {
      const data = await webpVariant(original.file, width);
      await mkdir(path.dirname(file), { recursive: true });
      // Written aside and renamed: a request at the same moment reads the whole file or makes its own.
      const partial = `${file}.${process.pid}.${Math.random().toString(36).slice(2)}.part`;
      await writeFile(partial, data);
      await rename(partial, file);
    }
    return { ...original, file, mime: 'image/webp', bytes: (await stat(file)).size };
  }
}

/** Where the variant of a stored image at `width` is kept: `variants/` beside it, named after it. */
function variantFile(original: string, width: number): string {
  const { dir, name } = path.parse(original);
  return path.join(dir, 'variants', `${name}-${width}.webp`);
}

function variantPaths(relative: string): string[] {
  return BANNER_WIDTHS.map((width) => variantFile(relative, width));
}
