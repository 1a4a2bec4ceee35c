/*
 * Creates one user in the database that DATA_DIR / DATABASE_URL name, applying migrations first, and
 * prints `{"uid": n}`. For seeding (e2e, demos): with the embedded database, run it while the server is
 * stopped, since only one process may open that database at a time; while the server runs it refuses,
 * naming the server's process and the way that works then (the staff screen or POST /api/adduser).
 *
 *   node server/dist/scripts/create-user.js --id ID --password PW --name NAME --role N [--rank N] [--introducer X]
 */
import { realpathSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { z } from 'zod';
import { LIMITS, kindOfRole, loginId, password } from '@enishi/contract';
import { loadConfig } from '../config.js';
import { openConfiguredDatabase } from '../db/client.js';
import { systemClock } from '../lib/clock.js';
import { UserRepository } from '../repositories/user-repository.js';
import { UserService } from '../services/user-service.js';

const USAGE =
  'usage: create-user --id ID --password PW --name NAME --role N [--rank N] [--introducer X]\n' +
  '  role: 1 admin, 2 owner, 3-6 staff, 101 male member, 201 female member';

const Args = z
  .object({
    id: loginId,
    password,
    name: z.string().trim().min(1).max(LIMITS.nameMax),
    role: z.coerce
      .number()
      .int()
      .refine((role) => kindOfRole(role) !== null),
    rank: z.coerce.number().int().min(0).max(99).default(0),
    introducer: z.string().max(LIMITS.introducerMax).default(''),
  })
  .strict();

/** Bad arguments or a taken ID: the message is for the person at the terminal. */
export class UsageError extends Error {
  override name = 'UsageError';
}

/** One user's arguments, checked: a UsageError names the first bad or missing one. */
function parseUserArgs(argv: string[]): z.infer<typeof Args> {
  let values: Record<string, string | undefined>;
  try {
    values = parseArgs({
      args: argv,
      options: {
        id: { type: 'string' },
        password: { type: 'string' },
        name: { type: 'string' },
        role: { type: 'string' },
        rank: { type: 'string' },
        introducer: { type: 'string' },
      },
    }).values;
  } catch (error) {
    throw new UsageError(`${(error as Error).message}\n${USAGE}`);
  }
  const parsed = Args.safeParse(values);
  if (!parsed.success) {
    throw new UsageError(
      `invalid or missing --${String(parsed.error.issues[0]?.path[0] ?? 'arguments')}\n${USAGE}`,
    );
  }
  return parsed.data;
}

export async function createUserFromArgs(argv: string[], env: NodeJS.ProcessEnv): Promise<{ uid: number }> {
  const [created] = await createUsersFromArgs([argv], env);
  return created!;
}

/**
 * Several users, each from its own arguments, with the database opened once (seeding a test club: opening the
 * embedded database and loading the server cost seconds a time). All are checked before any is created.
 */
export async function createUsersFromArgs(
  argvs: string[][],
  env: NodeJS.ProcessEnv,
): Promise<{ uid: number }[]> {
  const users = argvs.map(parseUserArgs);
  const database = await openConfiguredDatabase(loadConfig(env));
  try {
    await database.migrate();
    const service = new UserService(new UserRepository(database.db), systemClock);
    const created: { uid: number }[] = [];
    for (const { id, ...rest } of users) {
      const user = await service.create({ loginId: id, ...rest });
      if (!user) throw new UsageError(`the ID "${id}" is already taken`);
      created.push({ uid: user.id });
    }
    return created;
  } finally {
    await database.close();
  }
}

const runDirectly = process.argv[1] && realpathSync(process.argv[1]) === fileURLToPath(import.meta.url);
if (runDirectly) {
  createUserFromArgs(process.argv.slice(2), process.env).then(
    (result) => console.log(JSON.stringify(result)),
    (error: unknown) => {
      // ConfigError and UsageError carry a message meant for the operator; anything else is a bug.
      console.error(error instanceof Error && error.name !== 'Error' ? error.message : error);
      process.exit(1);
    },
  );
}
