import { LIMITS, jaMember } from '@enishi/contract';

/*
 * Images picked by staff for news, banners and bulk sends (product.md §5): only the listed types, at most
 * 5,000,000 bytes each; anything else is left out (and the caller says so). The server checks the bytes
 * again and re-encodes them.
 */

export type ImageType = 'image/jpeg' | 'image/png' | 'image/webp';

type FileLike = { type: string; size: number };

/** The files that may be used, in the order picked, up to `room`; `skipped` tells whether any was left out. */
export function pickImageFiles<T extends FileLike>(
  files: T[],
  types: readonly ImageType[],
  room: number,
): { accepted: T[]; skipped: boolean } {
  const fitting = files.filter(
    (file) => (types as readonly string[]).includes(file.type) && file.size <= LIMITS.imageBytes,
  );
  const accepted = fitting.slice(0, Math.max(0, room));
  return { accepted, skipped: accepted.length < files.length };
}

const TYPE_NAMES: Record<ImageType, string> = {
  'image/jpeg': 'JPEG',
  'image/png': 'PNG',
  'image/webp': 'WebP',
};

/**
 * Why some of the picked files cannot be used, in words with the limit (product.md §5), or null when all can:
 * a wrong type first, then a size over LIMITS.imageBytes.
 */
export function rejectedImagesText(files: FileLike[], types: readonly ImageType[]): string | null {
  if (files.some((file) => !(types as readonly string[]).includes(file.type)))
    return jaMember.images.wrongType(types.map((type) => TYPE_NAMES[type]).join('・'));
  if (files.some((file) => file.size > LIMITS.imageBytes))
    return jaMember.images.tooLarge(LIMITS.imageBytes / 1_000_000);
  return null;
}

/** The file as a data URL, unchanged. */
export function readAsDataUrl(file: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(reader.error ?? new Error('read failed'));
    reader.readAsDataURL(file);
  });
}

/** Talk size (product.md §5): 400 wide when at least as wide as tall, otherwise 800 tall; the other side scaled. */
export function talkImageSize(width: number, height: number): { width: number; height: number } {
  if (width <= 0 || height <= 0) return { width: 0, height: 0 };
  if (width >= height) return { width: 400, height: Math.max(1, Math.round((height * 400) / width)) };
  return { width: Math.max(1, Math.round((width * 800) / height)), height: 800 };
}

/**
 * Talk photos travel as JPEG (product.md §14.1, decision 017): JPEG because every browser's canvas encodes it
 * (Safari's makes PNG when asked for WebP). Qualities are tried in turn until the photo fits the budget.
 */
export const TALK_PHOTO_QUALITIES = [0.82, 0.7, 0.55] as const;
export const TALK_PHOTO_BUDGET_BYTES = 200_000;

/** The first encoding within the budget, else the last one tried; null when the browser encodes nothing. */
export async function encodeWithinBudget(
  encode: (quality: number) => Promise<Blob | null>,
  qualities: readonly number[] = TALK_PHOTO_QUALITIES,
  budget = TALK_PHOTO_BUDGET_BYTES,
): Promise<Blob | null> {
  let blob: Blob | null = null;
  for (const quality of qualities) {
    blob = await encode(quality);
    if (!blob || blob.size <= budget) break;
  }
  return blob;
}

/**
 * The picture redrawn at `size` for encoding as JPEG (talk photos, profile images), then let go; null when the
 * browser draws nothing. JPEG has no transparency: a transparent PNG goes onto white, not black.
 */
export function drawForJpeg(
  bitmap: ImageBitmap,
  size: { width: number; height: number },
): HTMLCanvasElement | null {
  const canvas = document.createElement('canvas');
  canvas.width = size.width;
  canvas.height = size.height;
  const context = canvas.getContext('2d');
  if (!context) return null;
  context.fillStyle = '#ffffff';
  context.fillRect(0, 0, size.width, size.height);
  context.imageSmoothingQuality = 'high';
  context.drawImage(bitmap, 0, 0, size.width, size.height);
  bitmap.close();
  return canvas;
}

/** A picture for a talk message: redrawn at talk size as a JPEG data URL; null when it cannot be read. */
export async function talkImageDataUrl(file: Blob): Promise<string | null> {
  try {
    const bitmap = await createImageBitmap(file, { imageOrientation: 'from-image' });
    const size = talkImageSize(bitmap.width, bitmap.height);
    if (size.width === 0) return null;
    const canvas = drawForJpeg(bitmap, size);
    if (!canvas) return null;
    const blob = await encodeWithinBudget(
      (quality) => new Promise((resolve) => canvas.toBlob(resolve, 'image/jpeg', quality)),
    );
    return blob ? await readAsDataUrl(blob) : null;
  } catch {
    return null;
  }
}
