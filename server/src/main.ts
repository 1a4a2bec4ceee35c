import { buildApp } from './app.js';
import { ALLOCATOR_ENV, allocatorTuned } from './lib/allocator.js';
import { lowerOtherThreads, lowerThreadPool } from './lib/background-priority.js';
import { letHeapGrow } from './lib/heap-growth.js';
import { startControlSocket } from './backup/control-socket.js';
import { startDailyBackups } from './backup/daily-backups.js';
import { ConfigError, loadConfig, type Config } from './config.js';
import { openConfiguredDatabase } from './db/client.js';
import { DataDirInUseError } from './db/data-dir-lock.js';
import { createLogger } from './logger.js';
import { connectSharedState } from './services/shared-state.js';

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

async function main(): Promise<void> {
  const config = readConfig();
  letHeapGrow();
  const log = createLogger(config.logLevel);
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

  const database = await openConfiguredDatabase(config);
  log.info({ engine: database.engine }, 'database opened');
  await database.migrate();

  // With REDIS_URL, realtime delivery and rate limits are shared with the other instances.
  const shared = config.redisUrl
    ? await connectSharedState(config.redisUrl, (error) => log.error({ err: error }, 'redis'))
    : undefined;
  if (shared) log.info('realtime and rate limits shared through redis');

  const app = await buildApp(config, {
    database,
    logger: log,
    fanout: shared?.fanout,
    rateLimiters: shared?.rateLimiters,
    fairUse: shared?.fairUse,
    push: { foreground: shared?.foreground },
    calls: shared?.calls,
  });
  await app.services.users.ensureOwner({ loginId: config.ownerId, password: config.ownerPassword }, log);
  if (await app.services.conversations.ensureStaffRoom()) log.info('created the default staff room');

  // Expired sessions are already refused when used; this only keeps the table from growing.
  const purgeSessions = async () => {
    try {
      const count = await app.services.sessions.purgeExpired();
      if (count > 0) log.info({ count }, 'expired sessions removed');
      // Login tickets and passkey challenges past their five minutes.
      await app.services.secondFactor.purgeExpired();
    } catch (error) {
      log.error({ err: error }, 'session purge failed');
    }
  };
  await purgeSessions();
  const purgeTimer = setInterval(() => void purgeSessions(), SESSION_PURGE_INTERVAL_MS).unref();

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
    clearInterval(purgeTimer);
    dailyBackups?.stop();
    try {
      await control?.close();
      await app.close();
      await shared?.close();
      await database.close();
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

  await app.listen({ port: config.port, host: config.host });
}

main().catch((error: unknown) => {
  if (error instanceof DataDirInUseError) {
    console.error(error.message); // names the process and the way; a stack would only hide it
    process.exit(1);
  }
  const log = createLogger('error');
  log.fatal({ err: error }, 'the server could not start');
  process.exit(1);
});
