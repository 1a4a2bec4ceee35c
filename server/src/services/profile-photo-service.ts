import type { ProfileRepository } from '../repositories/profile-repository.js';
import type { NewImage } from '../repositories/message-repository.js';
import type { MediaService, ServableImage } from './media-service.js';

/** Signed as `photo/<id>`, so a photo URL and a talk-image URL can never stand in for each other. */
const SIGNED_PREFIX = 'photo/';

/**
 * Member photos (product.md §19): cleaned, re-encoded without metadata and stored exactly as talk images are
 * (MediaService), served by signed, expiring URLs `/media/photo/<id>?e=…&s=…`, which are handed out only
 * with a profile the reader may see.
 */
export class ProfilePhotoService {
  constructor(
    private readonly media: MediaService,
    private readonly profiles: ProfileRepository,
  ) {}

  /** Cleans and writes one photo; the caller stores its row (or removes the file when that fails). */
  async store(dataUrl: string): Promise<NewImage> {
    const [image] = await this.media.store([dataUrl]);
    return image!;
  }

  remove(relativePaths: string[]): Promise<void> {
    return this.media.remove(relativePaths);
  }

  sign(ids: string[]): string[] {
    return this.media.sign(ids.map((id) => SIGNED_PREFIX + id));
  }

  verify(id: string, expiry: string, signature: string): boolean {
    return this.media.verify(SIGNED_PREFIX + id, expiry, signature);
  }

  async find(id: string, expiry: string): Promise<ServableImage | null> {
    return this.media.servable(await this.profiles.findServablePhoto(id), expiry);
  }
}
