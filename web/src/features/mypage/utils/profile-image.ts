import { LIMITS, PROFILE_IMAGE_SIDE } from '@enishi/contract';

/** product.md §5: a profile image is JPEG or PNG of at most 5,000,000 bytes; anything else is silently ignored. */
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
  const size = fitWithin(bitmap.width, bitmap.height);
  const canvas = document.createElement('canvas');
  canvas.width = size.width;
  canvas.height = size.height;
  const context = canvas.getContext('2d');
  if (!context) return null;
  // JPEG has no transparency: a transparent PNG goes onto white, as icons are shown on a light ground.
  context.fillStyle = '#ffffff';
  context.fillRect(0, 0, size.width, size.height);
  context.imageSmoothingQuality = 'high';
  context.drawImage(bitmap, 0, 0, size.width, size.height);
  bitmap.close();
  return canvas.toDataURL('image/jpeg', 0.9);
}
