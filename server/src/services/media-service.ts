import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { mkdir, open } from 'node:fs/promises';
import path from 'node:path';
import { ja } from '@enishi/contract';
import { removePictures } from '../backup/removal-gate.js';
import { badRequest, rateLimited } from '../errors.js';
import type { Clock } from '../lib/clock.js';
import { cleanImage, dataUrlBytes, ImageRejected, type ImageTarget } from '../lib/images.js';

/** How a picture is cleaned before it is stored (`cleanImage`, or the same work remembered). */
export type Cleaner = typeof cleanImage;
import type { MediaRepository } from '../repositories/media-repository.js';
import type { NewImage } from '../repositories/message-repository.js';
import type { SecretRepository } from '../repositories/secret-repository.js';

/** A picture to store: its data URL, or its bytes already decoded (by the frame reader). */
export type PictureSource = string | Buffer;

/** How long an image URL works after it is issued. */
export const MEDIA_URL_LIFETIME_S = 60 * 60;
/**
 * Expiries are rounded up to this step, so the URLs issued for one image within ten minutes are the same
 * string and the browser reuses what it cached. A URL thus lives between 60 and 70 minutes.
 */
const EXPIRY_STEP_S = 10 * 60;
/** Its row in app_secrets (rotated by scripts/rotate-key.ts). */
export const SIGNING_SECRET = 'media-url-signing-key';

export interface ServableImage {
  file: string;
  mime: string;
  bytes: number;
  /** Seconds the URL that asked for it stays valid: the most a cache may keep it. */
  maxAge: number;
}

/**
 * Talk images: cleans and stores what clients send, and signs the URLs through which it is served. A URL
 * is the capability: it is issued only to people who may see the message, and it expires.
 */
export class MediaService {
  private key: Buffer | undefined;

  constructor(
    private readonly media: MediaRepository,
    private readonly secrets: SecretRepository,
    private readonly mediaDir: string,
    private readonly clock: Clock,
  ) {}

  /** Loads (or, on the very first start, creates) the signing key that every instance shares. */
  async loadKey(): Promise<void> {
    const value = await this.secrets.getOrCreate(SIGNING_SECRET, randomBytes(32).toString('base64url'));
    this.key = Buffer.from(value, 'base64url');
  }

  private signature(id: string, expiry: number): string {
    if (!this.key) throw new Error('MediaService.loadKey() has not run');
    return createHmac('sha256', this.key).update(`${id}.${expiry}`).digest('base64url');
  }

  /** URLs for media ids, valid for about an hour from now. */
  sign(ids: string[]): string[] {
    if (ids.length === 0) return [];
    const now = Math.floor(this.clock() / 1000);
    const expiry = Math.ceil((now + MEDIA_URL_LIFETIME_S) / EXPIRY_STEP_S) * EXPIRY_STEP_S;
    return ids.map((id) => `/media/${id}?e=${expiry}&s=${this.signature(id, expiry)}`);
  }

  /** True when `signature` is ours for this id and expiry, and the expiry has not passed. */
  verify(id: string, expiry: string, signature: string): boolean {
    if (!/^\d{1,12}$/.test(expiry) || !/^[A-Za-z0-9_-]{43}$/.test(signature)) return false;
    if (Number(expiry) <= this.clock() / 1000) return false;
    const expected = Buffer.from(this.signature(id, Number(expiry)));
    const given = Buffer.from(signature);
    return given.length === expected.length && timingSafeEqual(given, expected);
  }

  /** The file behind a verified URL, or null when its message is gone. */
  async find(id: string, expiry: string): Promise<ServableImage | null> {
    return this.servable(await this.media.findServable(id), expiry);
  }

  /** A stored image (of a message, news item or banner) as served through a URL valid until `expiry`. */
  servable(
    found: { path: string; mime: string; bytes: number } | null,
    expiry: string,
  ): ServableImage | null {
    if (!found) return null;
    return {
      file: path.join(this.mediaDir, found.path),
      mime: found.mime,
      bytes: found.bytes,
      maxAge: Math.max(0, Number(expiry) - Math.floor(this.clock() / 1000)),
    };
  }

  /**
   * Cleans and stores each picture (one at a time, to bound memory and CPU per sender). Any refused
   * image refuses them all, and the files already written are removed. Talk pictures are stored as JPEG
   * photos; news and banners pass `as-sent` to keep their format.
   */
  async store(
    pictures: readonly PictureSource[],
    target: ImageTarget = 'photo',
    clean: Cleaner = cleanImage,
  ): Promise<NewImage[]> {
    const stored: NewImage[] = [];
    try {
      for (const picture of pictures) {
        const bytes = typeof picture === 'string' ? dataUrlBytes(picture) : picture;
        const image = await clean(bytes, target);
        const id = randomBytes(16).toString('base64url');
        const relative = path.join(id.slice(0, 2), `${id}.${image.extension}`);
        await this.writeDurably(path.join(this.mediaDir, relative), image.data);
        stored.push({
          id,
          path: relative,
          mime: image.mime,
          width: image.width,
          height: image.height,
          bytes: image.data.length,
        });
      }
      return stored;
    } catch (error) {
      await this.remove(stored.map((image) => image.path));
      if (error instanceof ImageRejected) {
        throw error.reason === 'busy'
          ? rateLimited(ja.errors.imagesBusy)
          : badRequest(error.reason === 'size' ? ja.errors.imageTooLarge : ja.errors.badImage);
      }
      throw error;
    }
  }

  /**
   * Removes stored files (after a failed or duplicate insert, or a deleted message), or once a running
   * backup has copied them. Never throws.
   */
  async remove(relativePaths: string[]): Promise<void> {
    await removePictures(
      this.mediaDir,
      relativePaths.map((relative) => path.join(this.mediaDir, relative)),
    ).catch(() => {});
  }

  // The message that refers to the file commits after this; the file must be on disk before it does.
  private async writeDurably(file: string, data: Buffer): Promise<void> {
    await mkdir(path.dirname(file), { recursive: true });
    const handle = await open(file, 'wx');
    try {
      await handle.writeFile(data);
      await handle.sync();
    } finally {
      await handle.close();
    }
  }
}
