import { LIMITS, PROFILE_IMAGE_SIDE } from '@enishi/contract';
import { drawForJpeg } from '@/lib/image-files';

/** product.md §5: a profile image is JPEG or PNG of at most 5,000,000 bytes; anything else is refused in words. */
export const PROFILE_IMAGE_TYPES = ['image/jpeg', 'image/png'] as const;
export const acceptsProfileImage = (file: { type: string; size: number }): boolean =>
  (file.type === 'image/jpeg' || file.type === 'image/png') && file.size <= LIMITS.imageBytes;

/** The size that fits `max` by `max` keeping the proportions; never larger than the original. */
export function fitWithin(
  width: number,
  height: number,
  max = PROFILE_IMAGE_SIDE,
): { width: number; height: number } {
  const scale = Math.min(1, max / Math.max(width, height));
  return { width: Math.max(1, Math.round(width * scale)), height: Math.max(1, Math.round(height * scale)) };
}

/**
 * Shrinks a picked picture to fit 200 by 200 and encodes it as a JPEG data URL (product.md §4, §5). Null for a
 * file that is not an acceptable image. EXIF orientation is applied by the browser when decoding.
 */
export async function profileImageDataUrl(file: File): Promise<string | null> {
  if (!acceptsProfileImage(file)) return null;
  let bitmap: ImageBitmap;
  try {
    bitmap = await createImageBitmap(file, { imageOrientation: 'from-image' });
  } catch {
    return null;
  }
  const canvas = drawForJpeg(bitmap, fitWithin(bitmap.width, bitmap.height));
  if (!canvas) return null;
  return canvas.toDataURL('image/jpeg', 0.9);
}
