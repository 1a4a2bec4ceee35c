import { useState, type ChangeEvent } from 'react';
import { jaMember } from '@enishi/contract';
import { pickImageFiles, readAsDataUrl, rejectedImagesText, type ImageType } from './image-files';

export type PickedImages = {
  /** The images read, as data URLs, in the order picked. */
  images: string[];
  /** Some file was left out: a wrong type, too large, no room left or unreadable. */
  skipped: boolean;
  /** Some usable file was left out for lack of room only. */
  overflow: boolean;
  /** Why files were left out other than for room (a wrong type, too large, unreadable), in words; else null. */
  problem: string | null;
};

/**
 * The one way a form picks images (the talk's comment box, news, bulk sends, banners): files of the
 * allowed types up to 5,000,000 bytes, as many as there is `room` for, each read with `read` (null when it
 * cannot be). `pick` is the file input's change handler; `reading` counts files still being read.
 */
export function useImagePicker({
  types,
  room,
  read = readAsDataUrl,
  onPicked,
}: {
  types: readonly ImageType[];
  room: number;
  read?: (file: File) => Promise<string | null>;
  onPicked: (picked: PickedImages) => void;
}): { reading: number; pick: (event: ChangeEvent<HTMLInputElement>) => Promise<void> } {
  const [reading, setReading] = useState(0);

  async function pick(event: ChangeEvent<HTMLInputElement>) {
    const input = event.currentTarget;
    const files = [...(input.files ?? [])];
    input.value = ''; // the same picture can be picked again
    const { accepted, skipped } = pickImageFiles(files, types, room - reading);
    const overflow = pickImageFiles(files, types, Infinity).accepted.length > accepted.length;
    setReading((count) => count + accepted.length);
    const results = await Promise.all(accepted.map((file) => read(file).catch(() => null)));
    setReading((count) => count - accepted.length);
    const images = results.filter((image): image is string => image !== null);
    const unreadable = images.length < accepted.length;
    const problem = rejectedImagesText(files, types) ?? (unreadable ? jaMember.images.unreadable : null);
    onPicked({ images, skipped: skipped || unreadable, overflow, problem });
  }

  return { reading, pick };
}
