import { createReadStream, createWriteStream, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { gunzipSync, gzipSync } from 'node:zlib';
import { sql } from 'drizzle-orm';
import { pack as tarPack, extract as tarExtract } from 'tar-stream';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config.js';
import { openConfiguredDatabase } from '../db/client.js';
import { rowsOf } from '../db/raw.js';
import { systemClock } from '../lib/clock.js';
import { UserRepository } from '../repositories/user-repository.js';
import { backupFromArgs } from '../scripts/backup.js';
import { restoreFromArgs } from '../scripts/restore.js';
import { rowCounts } from '../test/backup.js';
import { DEFAULT_ENGINE } from '../test/database.js';
import { runScript } from '../test/process.js';
import { UserService } from '../services/user-service.js';
import { backupPlaces } from '../test/backup-places.js';
import { rowsFound } from './read-backup.js';
import { RestoreRefused } from './refused.js';
import { addEntry } from './write-backup.js';

/*
 * A restore writes only the club's own tables and never prints a row: hostile files (made with the backup
 * writer's own entries) and damaged ones (cut short, a bit flipped in the users' rows) are refused, naming
 * the table or the problem, with no password hash or login ID in the message.
 */

const places = backupPlaces();
const { tempDir } = places;
const newTarget = () => places.newTarget(DEFAULT_ENGINE);

const LOGIN_IDS = ['hostile-owner', 'hostile-member'];
let original: NodeJS.ProcessEnv;
let target: NodeJS.ProcessEnv;
let plainFile: string;
let dir: string;

beforeAll(async () => {
  original = await newTarget();
  const database = await openConfiguredDatabase(loadConfig(original));
  try {
    await database.migrate();
    const users = new UserService(new UserRepository(database.db), systemClock);
    await users.create({ loginId: LOGIN_IDS[0]!, password: 'Owner-pass1', name: 'オーナー', role: 2 });
    await users.create({ loginId: LOGIN_IDS[1]!, password: 'Member-pass1', name: '会員', role: 101 });
  } finally {
    await database.close();
  }
  dir = tempDir('enishi-hostile-file-');
  plainFile = path.join(dir, 'club.backup');
  await backupFromArgs(['--plain', plainFile], original);
  target = await newTarget();
}, 120_000);

type Edit = (name: string, data: Buffer) => [string, Buffer][];

/** A copy of the club's backup with its entries edited: each entry becomes what `edit` returns for it. */
async function hostile(edit: Edit): Promise<string> {
  const file = path.join(dir, `hostile-${Math.random().toString(36).slice(2)}.backup`);
  const pack = tarPack();
  const written = pipeline(pack, createWriteStream(file));
  const extract = tarExtract();
  createReadStream(plainFile).pipe(extract);
  for await (const entry of extract) {
    const parts: Buffer[] = [];
    for await (const part of entry) parts.push(part as Buffer);
    for (const [name, data] of edit(entry.header.name, Buffer.concat(parts)))
      await addEntry(pack, name, data);
  }
  pack.finalize();
  await written;
  return file;
}

const rows = (...values: object[]) => gzipSync(values.map((value) => JSON.stringify(value)).join('\n'));
const USERS = 'db/public.users/000000.jsonl.gz';
const usersOf = (data: Buffer) =>
  gunzipSync(data)
    .toString()
    .split('\n')
    .map((line) => JSON.parse(line) as Record<string, unknown>);

/** Restores `file` into the empty target; the refusal's message, checked to name no value of a row. */
async function refusal(file: string): Promise<string> {
  const error = await restoreFromArgs([file], target).then(
    () => {
      throw new Error('the restore was not refused');
    },
    (caught: unknown) => caught,
  );
  const message = (error as Error).message;
  expect(message).not.toMatch(/\$argon2/);
  for (const id of LOGIN_IDS) expect(message).not.toContain(id);
  expect(error).toBeInstanceOf(RestoreRefused);
  return message;
}

/** The target is as empty as before: a refused restore wrote nothing (or took back what it wrote). */
async function expectTargetEmpty(): Promise<void> {
  const database = await openConfiguredDatabase(loadConfig(target));
  try {
    expect(await rowsFound(database.db)).toEqual({});
    const [found] = rowsOf<{ n: number | string }>(
      await database.db.execute(sql`select count(*) as n from pg_description where description = 'hostile'`),
    );
    expect(Number(found!.n)).toBe(0);
  } finally {
    await database.close();
  }
}

describe(`a hostile backup on ${DEFAULT_ENGINE}`, () => {
  it('is refused when it holds rows of a table that is not the club’s, naming the table', async () => {
    const description = { objoid: 1259, classoid: 1259, objsubid: 0, description: 'hostile' };
    const tables = [
      'pg_catalog.pg_description',
      'information_schema.sql_features',
      'evil.accounts',
      'public.not_ours',
    ];
    for (const table of tables) {
      const file = await hostile((name, data) =>
        name === USERS
          ? [
              [`db/${table}/000000.jsonl.gz`, rows(description)],
              [name, data],
            ]
          : [[name, data]],
      );
      expect(await refusal(file)).toMatch(
        new RegExp(`holds rows of "${table.replace('.', '\\.')}", which is not one of the club's tables`),
      );
    }
    // In the tail too.
    const tail = await hostile((name, data) =>
      name === 'tail.json'
        ? [
            [name, data],
            ['tail/pg_catalog.pg_description/000000.jsonl.gz', rows(description)],
          ]
        : [[name, data]],
    );
    expect(await refusal(tail)).toMatch(/tail holds rows of "pg_catalog\.pg_description"/);
    await expectTargetEmpty();
  }, 120_000);

  it('is refused when its manifest counts or sets what is not the club’s', async () => {
    const manifest = (change: (value: Record<string, Record<string, number>>) => void) =>
      hostile((name, data) => {
        if (name !== 'manifest.json') return [[name, data]];
        const value = JSON.parse(data.toString()) as Record<string, Record<string, number>>;
        change(value);
        return [[name, Buffer.from(JSON.stringify(value))]];
      });
    expect(await refusal(await manifest((value) => (value.tables!['pg_catalog.pg_authid'] = 0)))).toMatch(
      /manifest counts rows of "pg_catalog\.pg_authid"/,
    );
    expect(await refusal(await manifest((value) => (value.sequences!['pg_catalog.evil_seq'] = 5)))).toMatch(
      /sets the sequence "pg_catalog\.evil_seq", which is not one of the club's/,
    );
    await expectTargetEmpty();
  }, 120_000);

  it('is refused when its rows have a column the club’s table has not, or do not fit it, without their values', async () => {
    const extraColumn = await hostile((name, data) =>
      name === USERS
        ? [[name, rows(...usersOf(data).map((user) => ({ ...user, is_superuser: true })))]]
        : [[name, data]],
    );
    expect(await refusal(extraColumn)).toMatch(
      /rows of public\.users \(part 000000\) have a column "is_superuser" that the club's table has not/,
    );
    // Two rows with one id: PostgreSQL's own message would quote the key, drizzle's every row of the chunk.
    const twice = await hostile((name, data) =>
      name === USERS ? [[name, rows(...usersOf(data), usersOf(data)[0]!)]] : [[name, data]],
    );
    expect(await refusal(twice)).toMatch(
      /rows of public\.users \(part 000000\) do not fit the club's table \(SQLSTATE 23505, constraint users_/,
    );
    const notJson = await hostile((name, data) =>
      name === USERS
        ? [[name, gzipSync(`${gunzipSync(data).toString()}\n{"login_id": "hostile-member"`)]]
        : [[name, data]],
    );
    expect(await refusal(notJson)).toMatch(/row 3 of public\.users \(part 000000\) is not JSON/);
    await expectTargetEmpty();
  }, 120_000);
});

describe(`a damaged backup on ${DEFAULT_ENGINE}`, () => {
  it('is refused, cut short anywhere or with a bit flipped in the users’ rows, naming the problem only', async () => {
    const whole = readFileSync(plainFile);
    const users = whole.indexOf(USERS) + 512; // the entry's data follows its 512-byte header
    const damaged = (bytes: Buffer) => {
      const file = path.join(dir, `damaged-${Math.random().toString(36).slice(2)}.backup`);
      writeFileSync(file, bytes);
      return file;
    };
    const pictureList = whole.indexOf('pictures.json') + 512;
    const cuts = [100, 700, users + 10, Math.floor(whole.length / 2), pictureList + 5];
    for (const length of cuts) {
      expect(await refusal(damaged(whole.subarray(0, length)))).toMatch(
        /not an Enishi backup|damaged|cut short|incomplete/,
      );
    }
    const flipped = Buffer.from(whole);
    flipped[users + 30]! ^= 0x08;
    expect(await refusal(damaged(flipped))).toMatch(
      /the backup is damaged: the rows of public\.users \(part 000000\) do not unpack/,
    );
    await expectTargetEmpty();

    // As the command prints it.
    const printed = await runScript('server/src/scripts/restore.ts', [damaged(flipped)], target).then(
      () => '',
      (error: Error) => error.message,
    );
    expect(printed).toMatch(/restore refused: the backup is damaged: the rows of public\.users/);
    expect(printed).not.toMatch(/\$argon2/);
    for (const id of LOGIN_IDS) expect(printed).not.toContain(id);

    // And the whole file restores.
    await restoreFromArgs([plainFile], target);
    expect(await rowCounts(target)).toEqual(await rowCounts(original));
  }, 180_000);
});
