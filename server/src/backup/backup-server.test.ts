import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runDemo } from '../scripts/demo.js';
import { restoreFromArgs } from '../scripts/restore.js';
import { pictureHashes, rowCounts } from '../test/backup.js';
import { freePort, runScript, startServerProcess } from '../test/process.js';
import { newDataDir } from '../test/template-database.js';
import { CONTROL_SOCKET } from './control-socket.js';

const folders: string[] = [];
afterAll(() => folders.forEach((folder) => rmSync(folder, { recursive: true, force: true })));
const kept = (dir: string) => {
  folders.push(dir);
  return dir;
};
const tempDir = (prefix: string) => kept(mkdtempSync(path.join(tmpdir(), prefix)));

describe('npm run backup with the embedded database while the server runs', () => {
  it('goes through the server, which holds the database, and restores whole', async () => {
    const original = { DATA_DIR: kept(newDataDir('enishi-served-')), LOG_LEVEL: 'silent' };
    await runDemo(original);
    const file = path.join(tempDir('enishi-served-file-'), 'club.backup');

    const server = await startServerProcess({
      ...original,
      PORT: String(await freePort()),
      HOST: '127.0.0.1',
      OWNER_ID: 'demo-owner',
    });
    let backup;
    try {
      expect(existsSync(path.join(original.DATA_DIR, CONTROL_SOCKET))).toBe(true);
      backup = JSON.parse(await runScript('server/src/scripts/backup.ts', ['--plain', file], original)) as {
        rows: number;
        pictures: number;
      };
      expect((await fetch(`${server.baseUrl}/healthz`)).status).toBe(200);
    } finally {
      server.child.kill('SIGTERM');
      await server.exited;
    }
    expect(server.log()).not.toMatch(/"level":50/);
    expect(existsSync(path.join(original.DATA_DIR, CONTROL_SOCKET))).toBe(false);

    const copy = { DATA_DIR: kept(newDataDir('enishi-served-copy-')), LOG_LEVEL: 'silent' };
    const restored = await restoreFromArgs([file], copy);
    expect(restored.rows).toBe(backup.rows);
    expect(await rowCounts(copy)).toEqual(await rowCounts(original));
    expect(pictureHashes(copy)).toEqual(pictureHashes(original));
    expect(Object.keys(pictureHashes(copy))).toHaveLength(backup.pictures);
  }, 300_000);
});
