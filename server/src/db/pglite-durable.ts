import { fsyncSync } from 'node:fs';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';

/*
 * PGlite starts PostgreSQL with fsync off (`-F`), and its Node file system (Emscripten's NODEFS) has no
 * fsync at all: a commit is in the operating system's cache, not on disk, when it returns. Here PostgreSQL
 * gets its own durability back (docs/decisions/007-hostile-input-and-durability.md): fsync on, the WAL
 * flushed with fsync(2) at every commit (wal_sync_method=fsync; fdatasync does not reach the file system in
 * this build), and NODEFS given the fsync that PostgreSQL's calls end in. A commit, and so every
 * acknowledgement after it, returns only once its WAL is on disk; checkpoints sync the data files.
 */

const DURABLE_START_PARAMS = [...PGlite.defaultStartParams, '-c', 'fsync=on', '-c', 'wal_sync_method=fsync'];

interface NodeStream {
  nfd?: number;
  path?: string;
}

interface WithNodeFs {
  Module?: { NODEFS?: { stream_ops: { fsync?: (stream: NodeStream) => void } } };
}

/**
 * Opens the embedded database in `dataDir` with durable commits. `onSync` sees each file synced (tests show
 * with it that a commit's WAL was synced before the commit returned).
 */
export async function openDurablePglite(dataDir: string, onSync?: (path: string) => void): Promise<PGlite> {
  const pg = new PGlite(dataDir, { startParams: DURABLE_START_PARAMS, extensions: { pg_trgm } });
  await pg.waitReady;
  const nodeFs = (pg as unknown as WithNodeFs).Module?.NODEFS;
  if (!nodeFs) {
    await pg.close();
    throw new Error('This PGlite build has no NODEFS to sync through: commits could not be made durable.');
  }
  nodeFs.stream_ops.fsync = (stream) => {
    if (stream.nfd === undefined) return;
    fsyncSync(stream.nfd);
    onSync?.(stream.path ?? '');
  };
  return pg;
}
