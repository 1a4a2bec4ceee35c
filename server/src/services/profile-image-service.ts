import { randomBytes } from 'node:crypto';
import { mkdir, open, stat } from 'node:fs/promises';
import path from 'node:path';
import { ja, jaMember } from '@enishi/contract';
import { removePictures } from '../backup/removal-gate.js';
import { badRequest, rateLimited } from '../errors.js';
import type { Clock } from '../lib/clock.js';
import { dataUrlBytes, ImageRejected } from '../lib/images.js';
import { profileImage } from '../lib/profile-images.js';
import type { MediaService } from './media-service.js';

/** What `users.image` holds for a stored profile picture: its id (the file is `<id>.jpg`). */
const PROFILE_ID = /^[A-Za-z0-9_-]{22}$/;
/** Signed as `profile/<id>`, so a profile URL and a talk-image URL can never stand in for each other. */
const SIGNED_PREFIX = 'profile/';

/**
 * Profile pictures: cleaned and stored under DATA_DIR/media/profile, served by the same signed, expiring
 * URLs as talk images (`/media/profile/<id>?e=…&s=…`). A URL is issued only with a user row or a talk row
 * that the reader may see.
 */
export class ProfileImageService {
  private readonly dir: string;

  constructor(
    private readonly media: MediaService,
    mediaDir: string,
    private readonly clock: Clock,
  ) {
    this.dir = path.join(mediaDir, 'profile');
  }

  /** Cleans and writes a picture sent as a data URL; returns the id to keep in `users.image`. */
  async store(dataUrl: string): Promise<string> {
    let image;
    try {
      image = await profileImage(dataUrlBytes(dataUrl));
    } catch (error) {
      if (error instanceof ImageRejected) {
        throw error.reason === 'busy'
          ? rateLimited(ja.errors.imagesBusy)
          : badRequest(
              error.reason === 'size' ? ja.errors.imageTooLarge : jaMember.members.errors.imageRejected,
            );
      }
      throw error;
    }
    const id = randomBytes(16).toString('base64url');
    await mkdir(this.dir, { recursive: true });
    // On disk before the row that points at it commits.
    const handle = await open(this.fileOf(id), 'wx');
    try {
      await handle.writeFile(image.data);
      await handle.sync();
    } finally {
      await handle.close();
    }
    return id;
  }

  /** A signed URL for a stored picture; null for none (or for anything that is not one of ours). */
  url(stored: string | null): string | null {
    if (!stored || !PROFILE_ID.test(stored)) return null;
    return this.media.sign([`${SIGNED_PREFIX}${stored}`])[0] ?? null;
  }

  /** True when the URL's signature is ours for this picture and has not expired. */
  verify(id: string, expiry: string, signature: string): boolean {
    return PROFILE_ID.test(id) && this.media.verify(`${SIGNED_PREFIX}${id}`, expiry, signature);
  }

  /**
   * The file of a stored picture and how long a cache may keep it (what is left of its URL's life), or
   * null once it is gone (replaced, or its user deleted).
   */
  async find(id: string, expiry: string): Promise<{ file: string; bytes: number; maxAge: number } | null> {
    if (!PROFILE_ID.test(id)) return null;
    const file = this.fileOf(id);
    const info = await stat(file).catch(() => null);
    if (!info?.isFile()) return null;
    const maxAge = Math.max(0, Number(expiry) - Math.floor(this.clock() / 1000));
    return { file, bytes: info.size, maxAge };
  }

  /** Removes a picture that is no longer used (replaced, its user deleted, or its update failed). */
  async remove(stored: string | null): Promise<void> {
    if (!stored || !PROFILE_ID.test(stored)) return;
    // Held while a backup copies the media folder (backup/removal-gate.ts).
    await removePictures(path.dirname(this.dir), [this.fileOf(stored)]).catch(() => {});
  }

  private fileOf(id: string): string {
    return path.join(this.dir, `${id}.jpg`);
  }
}
