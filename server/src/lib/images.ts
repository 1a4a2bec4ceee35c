import { availableParallelism } from 'node:os';
import sharp from 'sharp';
import { LIMITS } from '@enishi/contract';
import { JobPool, PoolFull } from './job-pool.js';
import { metrics } from './metrics.js';

export type ImageMime = 'image/jpeg' | 'image/png' | 'image/webp';

export interface CleanImage {
  data: Buffer;
  mime: ImageMime;
  extension: 'jpg' | 'png' | 'webp';
  width: number;
  height: number;
}

/**
 * Why an image was refused: not one of the three formats (or broken), over the byte limit, or too many
 * images already waiting to be decoded.
 */
export class ImageRejected extends Error {
  constructor(readonly reason: 'format' | 'size' | 'busy') {
    super(`image rejected: ${reason}`);
    this.name = 'ImageRejected';
  }
}

/** Largest side after processing. Talk images arrive at 400 or 800 px (product.md §5); this only caps abuse. */
const MAX_SIDE = 2048;
/** Refuses decompression bombs: a few MB of PNG can claim billions of pixels. */
const MAX_INPUT_PIXELS = 40_000_000;
const PROCESS_TIMEOUT_SECONDS = 20;

// Every upload is a new picture: libvips's cache of operations would only keep decoded pixels alive after
// the reply (product.md §15.7 item 5: memory returns after a flood).
sharp.cache(false);
// One thread per picture: libvips would otherwise take every core for each, and the event loop (every other
// member's messages) waits for a core while it does (product.md §15.7 item 5).
sharp.concurrency(1);

/**
 * Every decode of the process takes its turn here: one core's worth fewer than the machine has, at least one
 * (the event loop and the database must always find a core free: on two cores, two decodes at once took
 * both, and another member's delivery p99 went from 20 ms to 400 ms), and a bounded line behind them, so one
 * member's images cannot hold everyone's back for long, and a flood of them is refused instead of held in
 * memory.
 */
export const imageDecoding = new JobPool(Math.max(1, availableParallelism() - 1), 32, (change) =>
  metrics.queue('images', change),
);

/** Runs one sharp job in its turn; a full line is a `busy` refusal. */
export async function decodeInTurn<T>(job: () => Promise<T>): Promise<T> {
  try {
    return await imageDecoding.run(job);
  } catch (error) {
    if (error instanceof PoolFull) throw new ImageRejected('busy');
    throw error;
  }
}

/** The format the bytes themselves say, whatever the data URL or file name claims. */
export function sniffImage(bytes: Uint8Array): ImageMime | null {
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'image/jpeg';
  const png = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
  if (bytes.length >= 8 && png.every((byte, i) => bytes[i] === byte)) return 'image/png';
  const ascii = (from: number, to: number) => String.fromCharCode(...bytes.subarray(from, to));
  if (bytes.length >= 12 && ascii(0, 4) === 'RIFF' && ascii(8, 12) === 'WEBP') return 'image/webp';
  return null;
}

/** The bytes of a `data:image/...;base64,...` URL (the prefix is not trusted, only stripped). */
export function dataUrlBytes(dataUrl: string): Buffer {
  const comma = dataUrl.indexOf(',');
  return Buffer.from(comma >= 0 ? dataUrl.slice(comma + 1) : '', 'base64');
}

/**
 * What becomes of an image's format: `photo` (talk pictures and bulk sends) is always stored as JPEG of at
 * most about PHOTO_BUDGET_BYTES (product.md §14.1, decision 017: a 480 × 800 PNG photo was 1.1 MB); `as-sent`
 * (news, banners) keeps the format it came in, so a transparent banner stays transparent; `stamp` keeps it
 * too, fitted into STAMP_SIDE × STAMP_SIDE on a transparent ground.
 */
export type ImageTarget = 'photo' | 'as-sent' | 'stamp';
/** A stamp's side (product.md §12.8): drawn at 120 CSS px, so crisp at 2×. */
export const STAMP_SIDE = 240;

/** Talk photos are re-encoded down these qualities until one fits the budget (the last one is kept anyway). */
const PHOTO_QUALITIES = [80, 68, 55] as const;
export const PHOTO_BUDGET_BYTES = 200_000;

/**
 * Decodes, turns upright by its EXIF orientation, and re-encodes an image (as JPEG for a photo, else in its
 * own format). sharp writes no metadata unless asked, so EXIF (GPS included), XMP, IPTC and comments never
 * reach another user.
 */
export async function cleanImage(bytes: Buffer, target: ImageTarget = 'photo'): Promise<CleanImage> {
  if (bytes.length > LIMITS.imageBytes) throw new ImageRejected('size');
  const sniffed = sniffImage(bytes);
  if (!sniffed) throw new ImageRejected('format');
  const mime: ImageMime = target === 'photo' ? 'image/jpeg' : sniffed;

  const decoded = () =>
    sharp(bytes, { failOn: 'error', limitInputPixels: MAX_INPUT_PIXELS })
      .timeout({ seconds: PROCESS_TIMEOUT_SECONDS })
      .rotate()
      .resize(
        target === 'stamp'
          ? { width: STAMP_SIDE, height: STAMP_SIDE, fit: 'contain', background: '#0000' }
          : { width: MAX_SIDE, height: MAX_SIDE, fit: 'inside', withoutEnlargement: true },
      );
  const encode = (quality: number) => {
    const pipeline = decoded();
    if (target === 'photo')
      return pipeline.flatten({ background: '#ffffff' }).jpeg({ quality, mozjpeg: true });
    if (mime === 'image/jpeg') return pipeline.jpeg({ quality: 85 });
    // A stamp is a few flat colours: a palette keeps it to a few kilobytes.
    if (target === 'stamp' && mime === 'image/png') return pipeline.png({ palette: true, effort: 10 });
    return mime === 'image/png' ? pipeline.png() : pipeline.webp({ quality: 85 });
  };
  const qualities = target === 'photo' ? PHOTO_QUALITIES : [85];

  try {
    const { data, info } = await decodeInTurn(async () => {
      let result = await encode(qualities[0]).toBuffer({ resolveWithObject: true });
      for (const quality of qualities.slice(1)) {
        if (result.data.length <= PHOTO_BUDGET_BYTES) break;
        result = await encode(quality).toBuffer({ resolveWithObject: true });
      }
      return result;
    });
    const extension = mime === 'image/jpeg' ? 'jpg' : mime === 'image/png' ? 'png' : 'webp';
    return { data, mime, extension, width: info.width, height: info.height };
  } catch (error) {
    if (error instanceof ImageRejected) throw error;
    // Truncated or corrupt data, or a format sharp will not decode: the user sees "bad image".
    throw new ImageRejected('format');
  }
}

/** The widths a banner is served at (product.md §4): a phone, a phone at 2x or a tablet, and the original's. */
export const BANNER_WIDTHS = [480, 800, 1200] as const;
export type BannerWidth = (typeof BANNER_WIDTHS)[number];

/** A stored image scaled down to `width` (never up) as WebP, in its turn with every other decode. */
export function webpVariant(file: string, width: number): Promise<Buffer> {
  return decodeInTurn(() =>
    sharp(file, { failOn: 'error', limitInputPixels: MAX_INPUT_PIXELS })
      .resize({ width, withoutEnlargement: true })
      .webp({ quality: 78, effort: 4 })
      .timeout({ seconds: PROCESS_TIMEOUT_SECONDS })
      .toBuffer(),
  );
}
