import { randomBytes } from 'node:crypto';
import { mkdir, open, rename, rm } from 'node:fs/promises';
import path from 'node:path';

/** Writes a new file that only its owner may read (0600), synced; fails when one of that name exists. */
export async function writeSecretFile(file: string, content: string | Buffer): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true });
  const handle = await open(file, 'wx', 0o600);
  try {
    await handle.writeFile(content);
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/**
 * A secret file written under a name of its own first, so two processes never write or remove each
 * other's; `keep` gives it its name (replacing one there), `drop` removes it.
 */
export async function stageSecretFile(file: string, content: string) {
  const staged = `${file}.${randomBytes(6).toString('hex')}.new`;
  await writeSecretFile(staged, content);
  return {
    keep: () => rename(staged, file),
    drop: () => rm(staged, { force: true }),
  };
}
