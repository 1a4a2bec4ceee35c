import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import {
  can,
  jaMember,
  STAMP_RECENT_MAX,
  type StampSet,
  type StampSetAddBody,
  type StampsReply,
} from '@enishi/contract';
import type { z } from 'zod';
import { AppError, badRequest, forbidden, notFound } from '../errors.js';
import { cleanImage, type ImageMime } from '../lib/images.js';
import type { StampRepository, StampSetWithStamps } from '../repositories/stamp-repository.js';
import type { Cleaner, MediaService, PictureSource, ServableImage } from './media-service.js';
import type { Actor } from './session-service.js';

/** Stamp pictures (product.md §12.8): PNG or WebP, so their edges can be transparent. */
export const STAMP_IMAGE_FORMATS: readonly ImageMime[] = ['image/png', 'image/webp'];

/** The club's own set, drawn for Enishi (server/src/scripts/draw-stamps.ts): its pictures and labels. */
export const CLUB_STAMPS_DIR = fileURLToPath(new URL('../../assets/stamps/club', import.meta.url));
const CLUB_SET_KEY = 'club';
const CLUB_SET_NAME = 'つるちゃん';

const STAMP_PREFIX = '/media/stamp/';

/** A stamp that may be sent, as a message carries it. */
export interface SendableStamp {
  id: number;
  label: string;
  imageId: string;
}

/**
 * The club's own pictures cleaned once per process (the same files every start reads), so a process that
 * starts many clubs, as the tests do, does not clean the same 24 pictures each time; each club still gets
 * files of its own.
 */
const cleanedClubPictures = new Map<string, ReturnType<Cleaner>>();
const cleanClubPicture: Cleaner = (bytes, target) => {
  const key = `${target ?? ''}:${bytes.toString('base64')}`;
  let cleaned = cleanedClubPictures.get(key);
  if (!cleaned) {
    cleaned = cleanImage(bytes, target);
    cleaned.catch(() => cleanedClubPictures.delete(key));
    cleanedClubPictures.set(key, cleaned);
  }
  return cleaned;
};

/**
 * Stamps: the sets members and staff pick from, the check that a sent stamp may be sent, the staff's new
 * sets, and the club's own set seeded at the first start. Pictures are stored and signed as every other
 * image is (MediaService); their URLs are `/media/stamp/<id>?e=&s=`.
 */
export class StampService {
  constructor(
    private readonly stamps: StampRepository,
    private readonly media: MediaService,
  ) {}

  /** The sets in use and the caller's recently sent stamps (newest first, those still in the sets). */
  async list(actor: Actor): Promise<StampsReply> {
    const [sets, recent] = await Promise.all([
      this.stamps.sets(true),
      this.stamps.recent(actor.uid, STAMP_RECENT_MAX * 2),
    ]);
    const present = sets.map((set) => this.present(set));
    const usable = new Set(present.flatMap((set) => set.stamps.map((stamp) => stamp.id)));
    return { sets: present, recent: recent.filter((id) => usable.has(id)).slice(0, STAMP_RECENT_MAX) };
  }

  /** Every set, stopped ones too (the staff's screen). */
  async allSets(actor: Actor): Promise<StampSet[]> {
    if (!can(actor, 'stamp.manage')) throw forbidden();
    return (await this.stamps.sets(false)).map((set) => this.present(set));
  }

  /** The stamp a `text` frame names, when it may be sent; else the frame's refusal (nothing is stored). */
  async sendable(id: number): Promise<SendableStamp> {
    const stamp = await this.stamps.findSendable(id);
    if (!stamp) throw badRequest(jaMember.stamps.unknown);
    return { id: stamp.id, label: stamp.label, imageId: stamp.imageId };
  }

  /** A new set from staff: every picture is checked and cleaned as any upload is, then stored. */
  async addSet(actor: Actor, input: z.output<typeof StampSetAddBody>): Promise<{ id: number }> {
    if (!can(actor, 'stamp.manage')) throw forbidden();
    const images = await this.storePictures(input.stamps.map((stamp) => stamp.image));
    const id = await this.stamps
      .createSet({
        name: input.name,
        builtin: null,
        createdBy: actor.uid,
        stamps: input.stamps.map((stamp, i) => ({ label: stamp.label, image: images[i]! })),
      })
      .catch(async (error: unknown) => {
        await this.media.remove(images.map((image) => image.path));
        throw error;
      });
    return { id: id! };
  }

  async setEnabled(actor: Actor, id: number, enabled: boolean): Promise<void> {
    if (!can(actor, 'stamp.manage')) throw forbidden();
    if (!(await this.stamps.setEnabled(id, enabled))) throw notFound();
  }

  /**
   * Seeds the club's own set once, whichever instance starts first (the loser removes the files it wrote).
   * Its pictures go through the same cleaning as any upload.
   */
  async seedClubSet(): Promise<void> {
    if (await this.stamps.hasBuiltin(CLUB_SET_KEY)) return;
    const labels = JSON.parse(await readFile(path.join(CLUB_STAMPS_DIR, 'labels.json'), 'utf8')) as string[];
    const files = await Promise.all(
      labels.map((_, i) => readFile(path.join(CLUB_STAMPS_DIR, `${String(i + 1).padStart(2, '0')}.png`))),
    );
    const images = await this.storePictures(files, cleanClubPicture);
    const created = await this.stamps
      .createSet({
        name: CLUB_SET_NAME,
        builtin: CLUB_SET_KEY,
        createdBy: null,
        stamps: labels.map((label, i) => ({ label, image: images[i]! })),
      })
      .catch(() => null);
    if (created === null) await this.media.remove(images.map((image) => image.path));
  }

  /** `/media/stamp/<id>?e=&s=`: signed like talk images, valid for about an hour. */
  sign(imageId: string): string {
    return STAMP_PREFIX + this.media.sign([imageId])[0]!.slice('/media/'.length);
  }

  verify(id: string, expiry: string, signature: string): boolean {
    return this.media.verify(id, expiry, signature);
  }

  async find(id: string, expiry: string): Promise<ServableImage | null> {
    return this.media.servable(await this.stamps.findServable(id), expiry);
  }

  private present(set: StampSetWithStamps): StampSet {
    return {
      id: set.id,
      name: set.name,
      builtin: set.builtin !== null,
      enabled: set.enabled,
      stamps: set.stamps.map((stamp) => ({
        id: stamp.id,
        label: stamp.label,
        image: this.sign(stamp.imageId),
      })),
    };
  }

  /** Cleans and stores pictures as stamps; a format other than PNG or WebP refuses them all. */
  private async storePictures(pictures: PictureSource[], clean: Cleaner = cleanImage) {
    const stored = await this.media.store(pictures, 'stamp', clean);
    if (stored.some((image) => !STAMP_IMAGE_FORMATS.includes(image.mime as ImageMime))) {
      await this.media.remove(stored.map((image) => image.path));
      throw new AppError('bad-request', jaMember.stampAdmin.badImage);
    }
    return stored;
  }
}
