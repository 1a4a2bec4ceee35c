import sharp from 'sharp';
import { LIMITS, PROFILE_IMAGE_SIDE } from '@enishi/contract';
import { decodeInTurn, ImageRejected, sniffImage } from './images.js';

const MAX_INPUT_PIXELS = 40_000_000;
const PROCESS_TIMEOUT_SECONDS = 20;

/**
 * A profile picture (product.md §5): JPEG or PNG by its bytes, at most 5,000,000 bytes; turned upright, shrunk to
 * fit 200 by 200 keeping its proportions, and re-encoded as JPEG without any metadata. Transparent PNG
 * pixels become white, as on the light ground where icons are shown.
 */
export async function profileImage(bytes: Buffer): Promise<{ data: Buffer; width: number; height: number }> {
  if (bytes.length > LIMITS.imageBytes) throw new ImageRejected('size');
  const mime = sniffImage(bytes);
  if (mime !== 'image/jpeg' && mime !== 'image/png') throw new ImageRejected('format');
  try {
    const pipeline = sharp(bytes, { failOn: 'error', limitInputPixels: MAX_INPUT_PIXELS })
      .timeout({ seconds: PROCESS_TIMEOUT_SECONDS })
      .rotate()
      .resize({
        width: PROFILE_IMAGE_SIDE,
        height: PROFILE_IMAGE_SIDE,
        fit: 'inside',
        withoutEnlargement: true,
      })
      .flatten({ background: '#ffffff' })
      .jpeg({ quality: 86, mozjpeg: true });
    const { data, info } = await decodeInTurn(() => pipeline.toBuffer({ resolveWithObject: true }));
    return { data, width: info.width, height: info.height };
  } catch (error) {
    if (error instanceof ImageRejected) throw error;
    throw new ImageRejected('format');
  }
}
