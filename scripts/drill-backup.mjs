// The install drill's backup and restore inside the container (scripts/drill-inside.mjs): the backup line of
// docs/operations.md as written, a backup the way the unit runs the server when that line fails, and the
// doc's restore drill into a fresh database. Each resolves with what the drill's summary says of it.
import fs from 'node:fs';
import path from 'node:path';

import { waitReady } from './drill-net.mjs';
import { APP, asUnitUser, log, readUnit, sh, startUnit, stopUnit, unitEnvironment } from './drill-units.mjs';

/** The doc's manual backup line (docs/operations.md, "Backups"), as written. */
function documentedBackupLine() {
  const doc = fs.readFileSync(`${APP}/docs/operations.md`, 'utf8');
  const section = doc.split(/^## /m).find((s) => s.startsWith('Backups'));
  if (!section) throw new Error('docs/operations.md has no "Backups" section');
  const blocks = [...section.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1]);
  const line = blocks
    .flatMap((b) => b.split('\n'))
    .find(
      (l) => /runuser -u enishi|setpriv|sudo -u enishi/.test(l) && /backup/.test(l) && !/restore/.test(l),
    );
  if (!line)
    throw new Error('no backup command run as enishi in the "Backups" section of docs/operations.md');
  return line.trim();
}

/** The documented backup: the file it wrote, and a note naming it with its owner, mode and size. */
export async function backup() {
  const line = documentedBackupLine();
  log(`   $ ${line}`);
  const before = Date.now();
  await sh('sh', ['-c', line], { cwd: APP, tail: 20, timeoutS: 300 });
  const dir = '/var/backups/enishi';
  const newest = fs
    .readdirSync(dir)
    .map((f) => path.join(dir, f))
    .filter((f) => fs.statSync(f).isFile() && fs.statSync(f).mtimeMs >= before - 1000)
    .sort((a, b) => fs.statSync(b).mtimeMs - fs.statSync(a).mtimeMs)[0];
  if (!newest) throw new Error(`no new file in ${dir} after the documented backup command`);
  const owner = (await sh('stat', ['-c', '%U:%G %a %s', newest])).trim();
  return { file: newest, note: `${newest} (${owner})` };
}

/** A backup taken the way the unit runs the server (its user, its environment file read as systemd reads it). */
export async function backupByUnit() {
  const service = readUnit('enishi@8081.service');
  const file = '/var/backups/enishi/drill-unit.backup';
  const [cmd, args] = asUnitUser(service, unitEnvironment(service), [
    '/usr/bin/node',
    'server/dist/scripts/backup.js',
    file,
  ]);
  await sh(cmd, args, { cwd: APP, tail: 20, timeoutS: 300 });
  return { file, note: file };
}

/** The identity deploy/install.sh made for the backups (no ENISHI_BACKUP_RECIPIENTS given), root's only. */
const INSTALL_IDENTITY = '/root/enishi-backup-identity.txt';
/** Where the restore drill of docs/operations.md puts the identity for the enishi user. */
const BACKUP_IDENTITY = '/var/lib/enishi-drill.key';

/**
 * docs/operations.md, "The restore drill": a fresh database and folder, restore `backupFile`, one instance on
 * 8099, where `memberReads` (given the instance's port) checks the member's message came back.
 */
export async function restore(backupFile, memberReads) {
  await sh('runuser', ['-u', 'postgres', '--', 'createdb', '-O', 'enishi', 'enishi_drill']);
  await sh('install', ['-d', '-o', 'enishi', '-g', 'enishi', '-m', '0750', '/var/lib/enishi-drill']);
  await sh('install', ['-o', 'enishi', '-g', 'enishi', '-m', '0600', INSTALL_IDENTITY, BACKUP_IDENTITY]);
  const service = readUnit('enishi@8099.service');
  const env = unitEnvironment(service);
  const overrides = {
    DATABASE_URL: env.DATABASE_URL.replace(/\/enishi$/, '/enishi_drill'),
    DATA_DIR: '/var/lib/enishi-drill',
    REDIS_URL: 'redis://127.0.0.1:6379/9',
    BACKUP_DIR: '',
  };
  const [cmd, args] = asUnitUser(service, { ...env, ...overrides }, [
    '/usr/bin/node',
    'server/dist/scripts/restore.js',
    '--identity',
    BACKUP_IDENTITY,
    backupFile,
  ]);
  await sh(cmd, args, { cwd: APP, tail: 20, timeoutS: 300 });
  const drill = await startUnit('enishi@8099.service', { overrides });
  try {
    await waitReady(8099, drill);
    await memberReads({ port: 8099, tls: false });
  } finally {
    await stopUnit(drill);
  }
  await sh('runuser', ['-u', 'postgres', '--', 'dropdb', 'enishi_drill']);
  await sh('rm', ['-r', '/var/lib/enishi-drill', BACKUP_IDENTITY]);
  return 'restored into enishi_drill; an instance on it (8099) shows the member the message; dropped again';
}
