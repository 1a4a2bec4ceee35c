import { readdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { isRunning } from '../db/data-dir-lock.js';

/*
 * A backup copies DATA_DIR/media after it has taken its database snapshot. A picture whose row is deleted
 * after the snapshot must still be there when the copy reaches it, so while a backup runs, stored pictures
 * are not removed: each backup leaves a marker file in the media folder (`.backup-running-<pid>`), and a
 * removal that finds a live one waits and tries again. A removal always comes after the commit that
 * deleted the row, so it sees the marker of any backup whose snapshot still has that row. Every process
 * that shares the folder (several instances, the backup command) sees the same markers.
 */

const MARKER = '.backup-running-';
const RETRY_MS = 5_000;

/** True while a running process has a backup of `mediaDir` under way; stale markers are cleared. */
async function backupRunning(mediaDir: string): Promise<boolean> {
  const names = await readdir(mediaDir).catch(() => [] as string[]);
  let running = false;
  for (const name of names) {
    if (!name.startsWith(MARKER)) continue;
    const pid = Number(name.slice(MARKER.length).split('-')[0]);
    if (Number.isInteger(pid) && isRunning(pid)) running = true;
    else await rm(path.join(mediaDir, name), { force: true });
  }
  return running;
}

/** Removes files of the media folder (absolute paths), or, while a backup reads it, as soon as it is done. */
export async function removePictures(mediaDir: string, files: string[]): Promise<void> {
  if (files.length === 0) return;
  if (await backupRunning(mediaDir)) {
    setTimeout(() => void removePictures(mediaDir, files), RETRY_MS).unref();
    return;
  }
  await Promise.all(files.map((file) => rm(file, { force: true }).catch(() => {})));
}

let held = 0;

/** Holds removals in `mediaDir` until the returned function is called. */
export async function holdRemovals(mediaDir: string): Promise<() => Promise<void>> {
  const marker = path.join(mediaDir, `${MARKER}${process.pid}-${++held}`);
  await writeFile(marker, '');
  return () => rm(marker, { force: true });
}

/** Names in the media folder that are not pictures (the markers above). */
export function isMarker(name: string): boolean {
  return name.startsWith(MARKER);
}
