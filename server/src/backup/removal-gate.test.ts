import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { holdRemovals, removePictures } from './removal-gate.js';

describe('picture removals while a backup copies the media folder', () => {
  const mediaDir = mkdtempSync(path.join(tmpdir(), 'enishi-gate-'));
  afterAll(() => rmSync(mediaDir, { recursive: true, force: true }));
  const picture = (name: string) => {
    const file = path.join(mediaDir, name);
    writeFileSync(file, name);
    return file;
  };

  it('waits for the backup to end, then removes what was asked', async () => {
    const deleted = picture('deleted-during-backup.jpg');
    const release = await holdRemovals(mediaDir);
    await removePictures(mediaDir, [deleted]);
    expect(existsSync(deleted)).toBe(true); // the backup still finds it

    await release();
    const later = picture('deleted-after-backup.jpg');
    await removePictures(mediaDir, [later]);
    expect(existsSync(later)).toBe(false);
    await vi.waitFor(() => expect(existsSync(deleted)).toBe(false), { timeout: 15_000, interval: 200 });
  }, 20_000);

  it('takes no notice of the marker of a backup whose process is gone', async () => {
    writeFileSync(path.join(mediaDir, '.backup-running-999999999-1'), '');
    const file = picture('after-a-crash.jpg');
    await removePictures(mediaDir, [file]);
    expect(existsSync(file)).toBe(false);
  });
});
