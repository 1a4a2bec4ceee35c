import path from 'node:path';
import { buildApp } from './app.js';
import { ALLOCATOR_ENV, allocatorTuned } from './lib/allocator.js';
import { lowerOtherThreads, lowerThreadPool } from './lib/background-priority.js';
import { letHeapGrow } from './lib/heap-growth.js';
import { startControlSocket } from './backup/control-socket.js';
import { rotatedBackups, startDailyBackups } from './backup/daily-backups.js';
import { ConfigError, loadConfig, type Config } from './config.js';
import { openConfiguredDatabase, type DatabaseHandle } from './db/client.js';
import { DataDirInUseError } from './db/data-dir-lock.js';
import { loadSecretsKey } from './lib/secrets-key.js';
import { metrics } from './lib/metrics.js';
import { createLogger } from './logger.js';
import type { Logger } from 'pino';
import type { FastifyInstance } from 'fastify';
import { SecondFactorRepository } from './repositories/second-factor-repository.js';
import { connectSharedState, type SharedState } from './composition/shared-state.js';
import { checkConfiguration, firstContact, nearMissLines, ServiceUnreachableError } from './start-checks.js';

/** Where a first start without OWNER_PASSWORD leaves the owner's random password (product.md §10.4). */
const OWNER_PASSWORD_FILE = 'owner-password.txt';
const SHUTDOWN_TIMEOUT_MS = 15_000;
const SESSION_PURGE_INTERVAL_MS = 60 * 60 * 1000;

function readConfig(): Config {
  try {
    return loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      // A message naming the variable is all the operator needs; a stack trace would only hide it.
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
}

/** Until connected, a Redis error is kept for the one line that stops the start, not logged at every retry. */
async function connectRedis(url: string, log: Logger): Promise<SharedState> {
  let starting = true;
  let firstError: unknown;
  const shared = await firstContact(
    'Redis',
    'REDIS_URL',
    url,
    () =>
      connectSharedState(url, (error) => {
        if (starting) firstError ??= error;
        else log.error({ err: error }, 'redis');
      }),
    () => firstError,
  );
  starting = false;
  return shared;
}

/**
 * The database as this start needs it: opened, migrated (one line naming what ran, docs/releases.md, "none"
 * when nothing) and its stored TOTP secrets sealed with the key outside it (decision 032; a bad key file stops
 * the start).
 */
async function readyDatabase(config: Config, log: Logger) {
  const database = await openConfiguredDatabase(config);
  log.info({ engine: database.engine }, 'database opened');
  const migrations = config.databaseUrl
    ? await firstContact('PostgreSQL', 'DATABASE_URL', config.databaseUrl, () => database.migrate())
    : await database.migrate();
  log.info({ migrations }, `migrations ran: ${migrations.join(', ') || 'none'}`);
  const secretsKey = await loadSecretsKey(config.secretsKeyFile);
  const sealed = await new SecondFactorRepository(
    database.db,
    async () => secretsKey,
  ).sealStoredTotpSecrets();
  if (sealed > 0) log.info({ sealed }, 'TOTP secrets stored before decision 032 encrypted');
  return database;
}

/** The process tuned for many sockets and large frames; what is not as it should be is logged. */
async function tuneProcess(log: Logger): Promise<void> {
  for (const line of nearMissLines(process.env)) log.warn(line);
  if (!allocatorTuned()) {
    log.warn(
      { expected: ALLOCATOR_ENV },
      'malloc thresholds not set: memory freed after large frames may be kept',
    );
  }
  // Pictures are decoded on libuv's pool: at the lowest priority, it only uses the cores messages leave. So
  // do V8's helper threads; before the database's worker thread starts, they are all the others there are.
  const pool = await lowerThreadPool();
  const helpers = lowerOtherThreads();
  log.info({ pool: pool.length, threads: helpers }, 'helper threads at background priority');
}

/** What a club needs before anyone comes: its owner (product.md §10.4) and the staff room. */
async function firstRun(app: FastifyInstance, config: Config, log: Logger): Promise<void> {
  await app.services.users.ensureOwner(
    {
      loginId: config.ownerId,
      password: config.ownerPassword,
      passwordFile: path.join(config.dataDir, OWNER_PASSWORD_FILE),
    },
    log,
  );
  if (await app.services.conversations.ensureStaffRoom()) log.info('created the default staff room');
}

/** Expired sessions are already refused when used; this only keeps the table from growing. Now and hourly. */
async function purgeSessionsHourly(app: FastifyInstance, log: Logger): Promise<NodeJS.Timeout> {
  const purgeSessions = async () => {
    try {
      const count = await app.services.sessions.purgeExpired();
      if (count > 0) log.info({ count }, 'expired sessions removed');
      // Login tickets and passkey challenges past their five minutes.
      await app.services.loginTickets.purgeExpired();
    } catch (error) {
      log.error({ err: error }, 'session purge failed');
    }
  };
  await purgeSessions();
  return setInterval(() => void purgeSessions(), SESSION_PURGE_INTERVAL_MS).unref();
}

/** The backup socket (embedded database), the daily backups and their metric, as configured. */
async function startBackups(config: Config, database: DatabaseHandle, log: Logger) {
  // `npm run backup` reaches the embedded database through this process, which holds it.
  const control =
    database.engine === 'pglite'
      ? await startControlSocket(config.dataDir, database, (error) =>
          log.error({ err: error }, 'backup'),
        ).catch((error: unknown) => {
          // Serving matters more: only `npm run backup` while the server runs needs the socket.
          log.warn(
            { err: error },
            'no backup socket in DATA_DIR: npm run backup works only with the server stopped',
          );
          return undefined;
        })
      : undefined;
  const dailyBackups = config.backup.dir ? startDailyBackups(config, database, log) : undefined;
  // Every instance reports the newest backup in the shared folder, whichever instance wrote it.
  if (config.backup.dir) metrics.watchBackups(config.backup.dir, rotatedBackups);
  return { control, dailyBackups };
}

/** On SIGTERM or SIGINT: `close` within SHUTDOWN_TIMEOUT_MS, then exit; a second signal exits at once. */
function stopOnSignals(log: Logger, close: () => Promise<void>): void {
  let stopping = false;
  const stop = async (signal: NodeJS.Signals) => {
    if (stopping) {
      log.warn({ signal }, 'second signal: exiting without waiting');
      process.exit(1);
    }
    stopping = true;
    log.info({ signal }, 'shutting down: no new connections, finishing requests in flight');
    const timer = setTimeout(() => {
      log.error('shutdown took too long; exiting');
      process.exit(1);
    }, SHUTDOWN_TIMEOUT_MS).unref();
    try {
      await close();
      log.info('stopped');
      clearTimeout(timer);
      process.exit(0);
    } catch (error) {
      log.error({ err: error }, 'shutdown failed');
      process.exit(1);
    }
  };
  process.on('SIGTERM', (signal) => void stop(signal));
  process.on('SIGINT', (signal) => void stop(signal));
}

async function main(): Promise<void> {
  const config = readConfig();
  letHeapGrow();
  const log = createLogger(config.logLevel);
  await tuneProcess(log);
  const database = await readyDatabase(config, log);

  // With REDIS_URL, realtime delivery and rate limits are shared with the other instances.
  const shared = config.redisUrl ? await connectRedis(config.redisUrl, log) : undefined;
  if (shared) log.info('realtime and rate limits shared through redis');

  const app = await buildApp(config, {
    database,
    logger: log,
    fanout: shared?.fanout,
    rateLimiters: shared?.rateLimiters,
    fairUse: shared?.fairUse,
    push: { foreground: shared?.foreground },
    calls: shared?.calls,
    secondStepCounters: shared?.secondStepCounters,
  });
  await firstRun(app, config, log);
  const purgeTimer = await purgeSessionsHourly(app, log);
  const backups = await startBackups(config, database, log);

  stopOnSignals(log, async () => {
    clearInterval(purgeTimer);
    backups.dailyBackups?.stop();
    await backups.control?.close();
    await app.close();
    await shared?.close();
    await database.close();
  });

  await app.listen({ port: config.port, host: config.host });
  // The listening address above is not always the one to open: the chat socket takes PUBLIC_ORIGIN alone.
  log.info({ publicOrigin: config.publicOrigin }, `open the app at ${config.publicOrigin}`);
}

if (process.argv.includes('--check')) {
  const { code, lines } = checkConfiguration(process.argv.slice(2));
  for (const line of lines) (code === 0 ? console.log : console.error)(line);
  process.exit(code);
}

main().catch((error: unknown) => {
  if (error instanceof DataDirInUseError || error instanceof ServiceUnreachableError) {
    console.error(error.message); // one line naming what stopped the start; a stack would only hide it
    process.exit(1);
  }
  const log = createLogger('error');
  log.fatal({ err: error }, 'the server could not start');
  process.exit(1);
});
