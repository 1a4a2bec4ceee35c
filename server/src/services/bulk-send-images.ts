import { randomBytes } from 'node:crypto';
import { copyFile, link, mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { NewImage } from '../repositories/message-repository.js';

/** File links made at once while copying a bulk send's images. */
const LINK_CONCURRENCY = 32;

/**
 * Each recipient's message owns its images (deleting one copy must not take the others' pictures), so
 * every recipient gets its own media ids. The files are hard links to the one cleaned file: no bytes are
 * copied, and removing one link leaves the others. Where links are not possible, the file is copied.
 * Every path made is pushed to `written`, for clean-up on failure.
 */
export async function copyImages(
  mediaDir: string,
  images: NewImage[],
  count: number,
  written: string[],
): Promise<NewImage[][]> {
  if (images.length === 0) return [];
  const made = new Set<string>();
  const result: NewImage[][] = Array.from({ length: count }, () => []);
  const jobs: { source: NewImage; target: NewImage }[] = [];
  for (let recipient = 0; recipient < count; recipient += 1) {
    for (const source of images) {
      const id = randomBytes(16).toString('base64url');
      const target = {
        ...source,
        id,
        path: path.join(id.slice(0, 2), `${id}${path.extname(source.path)}`),
      };
      result[recipient]!.push(target);
      jobs.push({ source, target });
    }
  }
  let next = 0;
  const worker = async () => {
    while (next < jobs.length) {
      const { source, target } = jobs[next++]!;
      const folder = path.dirname(target.path);
      if (!made.has(folder)) {
        await mkdir(path.join(mediaDir, folder), { recursive: true });
        made.add(folder);
      }
      const from = path.join(mediaDir, source.path);
      const to = path.join(mediaDir, target.path);
      await link(from, to).catch(() => copyFile(from, to));
      written.push(target.path);
    }
  };
  await Promise.all(Array.from({ length: LINK_CONCURRENCY }, worker));
  return result;
}
