import path from 'node:path';
import type { Config } from '../config.js';
import type { DatabaseConnections } from '../db/client.js';
import type { Clock } from '../lib/clock.js';
import { ContentImageRepository } from '../repositories/content-image-repository.js';
import { MediaRepository } from '../repositories/media-repository.js';
import { ProfileRepository } from '../repositories/profile-repository.js';
import { SecretRepository } from '../repositories/secret-repository.js';
import { StampRepository } from '../repositories/stamp-repository.js';
import { ContentImageService } from '../services/content-image-service.js';
import { MediaService } from '../services/media-service.js';
import { ProfileImageService } from '../services/profile-image-service.js';
import { ProfilePhotoService } from '../services/profile-photo-service.js';
import { StampService } from '../services/stamp-service.js';

/** Stored pictures: media files, the pictures of content and profiles, and the signed URLs readers get. */
export function pictures(config: Pick<Config, 'dataDir'>, db: DatabaseConnections['db'], clock: Clock) {
  const mediaDir = path.join(config.dataDir, 'media');
  const media = new MediaService(new MediaRepository(db), new SecretRepository(db), mediaDir, clock);
  const profileImages = new ProfileImageService(media, mediaDir, clock);
  const stamps = new StampService(new StampRepository(db), media);
  return {
    stamps,
    signStamp: (imageId: string) => stamps.sign(imageId),
    media,
    profileImages,
    contentImages: new ContentImageService(media, new ContentImageRepository(db)),
    profilePhotos: new ProfilePhotoService(media, new ProfileRepository(db)),
    signImages: (ids: string[]) => media.sign(ids),
    profileUrl: (image: string | null) => profileImages.url(image),
  };
}

/** Stored pictures as the services get them. */
export type Pictures = ReturnType<typeof pictures>;
