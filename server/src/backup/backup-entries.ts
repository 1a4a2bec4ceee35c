import { createHash } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Extract } from 'tar-stream';
import { RestoreRefused } from './refused.js';
import { named, type Chunk } from './rows.js';
import type { PictureList } from './write-backup.js';

/*
 * The entries of a backup file as read-backup.ts restores them, in the order they stand: each read whole, a damaged archive refused with its own complaint, and the pictures copied and checked.
 */

export type Entry = Extract extends AsyncIterable<infer Source> ? Source : never;

/** The archive's own complaint ("Unexpected end of data", "Invalid tar header"), which never quotes a row. */
function damaged(error: unknown): RestoreRefused {
  if (error instanceof RestoreRefused) return error;
  const reason = error instanceof Error ? error.message : String(error);
  return new RestoreRefused(`the backup file is damaged or cut short (${reason})`);
}

async function bytesOf(entry: Entry): Promise<Buffer> {
  const parts: Buffer[] = [];
  try {
    for await (const part of entry) parts.push(part as Buffer);
  } catch (error) {
    throw damaged(error);
  }
  return Buffer.concat(parts);
}

/** A JSON entry of the file (manifest, tail, picture list); JSON.parse's message would quote the text. */
export async function jsonOf<T>(entry: Entry): Promise<T> {
  const bytes = await bytesOf(entry);
  try {
    return JSON.parse(bytes.toString('utf8')) as T;
  } catch {
    throw new RestoreRefused(`the backup is damaged: ${named(entry.header.name)} is not JSON`);
  }
}

/** A chunk of rows from its entry, `db/<schema.table>/<part>.jsonl.gz` (or under `tail/`). */
export async function chunkOf(entry: Entry, prefix: string): Promise<Chunk> {
  const [table = '', part = ''] = entry.header.name.slice(prefix.length).split('/');
  return { table, part: part.replace(/\.jsonl\.gz$/, ''), data: await bytesOf(entry) };
}

/** The archive's entries in order: `entry` is the one read last, `advance` reads the next. */
export class Entries {
  entry: Entry | undefined;

  constructor(private readonly iterator: AsyncIterator<Entry>) {}

  async advance(): Promise<Entry | undefined> {
    try {
      this.entry = (await this.iterator.next()).value as Entry | undefined;
    } catch (error) {
      throw damaged(error);
    }
    return this.entry;
  }

  /** Whether the current entry's name starts with `prefix`. */
  under(prefix: string): boolean {
    return this.entry?.header.name.startsWith(prefix) ?? false;
  }

  /** Whether the current entry is `name`. */
  at(name: string): boolean {
    return this.entry?.header.name === name;
  }
}

/** A media entry's path inside the media folder, or a refusal for one that would leave it. */
function mediaPath(mediaDir: string, name: string): string {
  const relative = name.slice('media/'.length);
  const target = path.resolve(mediaDir, relative);
  if (relative === '' || !target.startsWith(`${path.resolve(mediaDir)}${path.sep}`)) {
    throw new RestoreRefused(`the backup holds a file outside the media folder (${name})`);
  }
  return target;
}

/** Copies the pictures from here on into the media folder, keeping each one's hash by its path. */
export async function copyPictures(entries: Entries, mediaDir: string, hashes: Map<string, string>) {
  for (let entry = entries.entry; entry && entries.under('media/'); entry = await entries.advance()) {
    const target = mediaPath(mediaDir, entry.header.name);
    const data = await bytesOf(entry);
    await mkdir(path.dirname(target), { recursive: true });
    await writeFile(target, data, { flag: 'wx' });
    hashes.set(entry.header.name.slice('media/'.length), createHash('sha256').update(data).digest('hex'));
  }
}

/** The picture list, last: every picture it names copied with its hash, and nothing after it. */
export async function checkPictures(entries: Entries, hashes: Map<string, string>): Promise<void> {
  if (!entries.entry || !entries.at('pictures.json'))
    throw new RestoreRefused('the backup is incomplete (no picture list)');
  const list = await jsonOf<PictureList>(entries.entry);
  for (const picture of list.pictures) {
    if (hashes.get(picture.path) !== picture.sha256) {
      throw new RestoreRefused(`the backup is damaged: picture ${picture.path} is missing or altered`);
    }
  }
  while (await entries.advance()) {
    /* nothing follows the picture list */
  }
}
