/*
 * Replaces one of the keys every instance shares (kept in the database, app_secrets) with a new random one
 * (docs/operations.md, "Rotating secrets"); the instances read it at their next start, so restart them one
 * at a time afterwards. With the embedded database, run it while the server is stopped.
 *
 *   node --env-file=/etc/enishi/enishi.env server/dist/scripts/rotate-key.js device-token|image-signing
 *
 * device-token: every device token issued so far stops counting; each device is a new one to the login
 *   limits until its next login, which gives it a new token (nobody is logged out).
 * image-signing: every picture URL handed out so far (each lives about an hour) stops working; the app asks
 *   for new ones when it shows the pictures again (nobody is logged out).
 */
import { randomBytes } from 'node:crypto';
import { realpathSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { loadConfig } from '../config.js';
import { openConfiguredDatabase, type Database } from '../db/client.js';
import { SecretRepository } from '../repositories/secret-repository.js';
import { DEVICE_TOKEN_SECRET } from '../composition/login-wiring.js';
import { SIGNING_SECRET } from '../services/media-service.js';

/** The keys this command rotates, by the name given on the command line. */
export const ROTATABLE = {
  'device-token': DEVICE_TOKEN_SECRET,
  'image-signing': SIGNING_SECRET,
} as const;
type Rotatable = keyof typeof ROTATABLE;

const USAGE = `usage: rotate-key ${Object.keys(ROTATABLE).join('|')}`;

const isRotatable = (name: string | undefined): name is Rotatable =>
  name !== undefined && Object.hasOwn(ROTATABLE, name);

/** Puts a new random key in place of `key`'s. */
export async function rotateKey(db: Database, key: Rotatable): Promise<void> {
  await new SecretRepository(db).replace(ROTATABLE[key], randomBytes(32).toString('base64url'));
}

export async function rotateKeyFromArgs(argv: string[], env: NodeJS.ProcessEnv) {
  const [key, ...rest] = argv;
  if (!isRotatable(key) || rest.length > 0) throw new Error(USAGE);
  const database = await openConfiguredDatabase(loadConfig(env));
  try {
    await database.migrate();
    await rotateKey(database.db, key);
  } finally {
    await database.close();
  }
  return { rotated: key, next: 'restart every instance, one at a time: each reads the new key at its start' };
}

const runDirectly = process.argv[1] && realpathSync(process.argv[1]) === fileURLToPath(import.meta.url);
if (runDirectly) {
  rotateKeyFromArgs(process.argv.slice(2), process.env).then(
    (result) => {
      console.log(JSON.stringify(result));
      process.exit(0);
    },
    (error: unknown) => {
      console.error(error instanceof Error ? error.message : error);
      process.exit(1);
    },
  );
}
