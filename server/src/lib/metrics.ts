import { createHash, timingSafeEqual } from 'node:crypto';
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { CALL_END_REASONS } from '@enishi/contract';

/*
 * The process's metrics (product.md §10.3), served as Prometheus text on GET /metrics when METRICS_TOKEN is
 * set. One registry per process: the few places that count (Delivery's socket side, MessagePosting, the
 * message writer, the push queue, the call service, the job pool, the database clients, Redis connections and
 * the request hook) import `metrics` and move a counter or a gauge; nothing else knows prom-client.
 */
const registry = new Registry();

const socketsOpen = new Gauge({
  name: 'enishi_sockets_open',
  help: 'Chat sockets open on this instance',
  registers: [registry],
});
const messagesStored = new Counter({
  name: 'enishi_messages_stored_total',
  help: 'Chat messages committed (talks, bulk sends and call records)',
  registers: [registry],
});
const messagesDelivered = new Counter({
  name: 'enishi_messages_delivered_total',
  help: 'New messages handed to a live socket on this instance',
  registers: [registry],
});
const deliveryLatency = new Histogram({
  name: 'enishi_delivery_latency_seconds',
  help: 'From the commit of a message to its frame going out on a socket',
  buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
  registers: [registry],
});
const orderGaps = new Counter({
  name: 'enishi_message_order_gaps_total',
  help: 'Gaps in the order of new messages from other instances: waited for their publish (waited), read from the database (read)',
  labelNames: ['outcome'],
  registers: [registry],
});
const pushQueueLength = new Gauge({
  name: 'enishi_push_queue_length',
  help: 'Pushes waiting or being sent',
  registers: [registry],
});
const pushFailures = new Counter({
  name: 'enishi_push_failures_total',
  help: 'Push attempts the push service refused or that never reached it (status 0)',
  labelNames: ['status'],
  registers: [registry],
});
const calls = new Counter({
  name: 'enishi_calls_total',
  help: 'Voice calls ended, by outcome (answered, timeout, cancelled, declined, busy)',
  labelNames: ['outcome'],
  registers: [registry],
});
const httpRequests = new Counter({
  name: 'enishi_http_requests_total',
  help: 'HTTP requests answered, by route pattern and status',
  labelNames: ['method', 'route', 'status'],
  registers: [registry],
});
const queueDepth = new Gauge({
  name: 'enishi_queue_depth',
  help: 'Work waiting: database (queries sent and not yet answered: at the PGlite worker, or at PostgreSQL), message_writer (messages waiting for a batch), images (pictures waiting for the decoding pool)',
  labelNames: ['queue'],
  registers: [registry],
});
/** The Redis clients followed, by role; their state is read when scraped. */
const redisClients = new Map<string, { status: string }>();
new Gauge({
  name: 'enishi_redis_connected',
  help: 'Redis connections ready (1) or not (0), by role',
  labelNames: ['connection'],
  registers: [registry],
  collect() {
    for (const [connection, client] of redisClients) {
      this.set({ connection }, client.status === 'ready' ? 1 : 0);
    }
  },
});
/** The folder of the daily backups (BACKUP_DIR) this instance reports on, and how its backups are listed. */
let watchedBackups: { dir: string; rotated: (dir: string) => Promise<string[]> } | null = null;
/** The newest daily backup's time, served only by an instance with BACKUP_DIR (watchBackups). */
const lastBackup = new Gauge({
  name: 'enishi_backup_last_success_timestamp_seconds',
  help: 'When the newest daily backup in BACKUP_DIR was written (Unix time); 0 while there is none',
  registers: [],
  async collect() {
    const dir = watchedBackups?.dir;
    const newest = watchedBackups ? (await watchedBackups.rotated(watchedBackups.dir))[0] : undefined;
    const written = dir && newest ? await stat(path.join(dir, newest)).catch(() => null) : null;
    this.set(written ? Math.floor(written.mtimeMs / 1000) : 0);
  },
});

/*
 * Series a dashboard panel or an alert rule (deploy/prometheus/enishi-alerts.yml) reads exist from the start at
 * 0, so that the first event is an increase Prometheus sees, not the birth of a series.
 */
for (const queue of ['database', 'message_writer', 'images']) queueDepth.set({ queue }, 0);
for (const outcome of ['waited', 'read']) orderGaps.inc({ outcome }, 0);
for (const outcome of CALL_END_REASONS) calls.inc({ outcome }, 0);
// No answer at all (0), VAPID keys refused (401, 403), subscription gone (404, 410), too many (429).
for (const status of [0, 401, 403, 404, 410, 429]) pushFailures.inc({ status: String(status) }, 0);
// Logins, and logins refused for guessing (429, which an alert rule watches).
for (const status of [200, 429]) {
  httpRequests.inc({ method: 'POST', route: '/api/login', status: String(status) }, 0);
}

let defaultsCollected = false;

export const metrics = {
  registry,
  socketOpened: () => socketsOpen.inc(),
  socketClosed: () => socketsOpen.dec(),
  messagesStored: (count: number) => messagesStored.inc(count),
  /** A new message went out on a socket; `committedAt` (ms) is when its batch committed. */
  messageDelivered(committedAt: number | undefined): void {
    messagesDelivered.inc();
    if (committedAt !== undefined) deliveryLatency.observe(Math.max(0, Date.now() - committedAt) / 1000);
  },
  /** The message order waited for a missing publish (decision 025), or read missing messages from the database. */
  orderGap: (outcome: 'waited' | 'read') => orderGaps.inc({ outcome }),
  pushQueued: (change: number) => pushQueueLength.inc(change),
  pushFailed: (status: number) => pushFailures.inc({ status: String(status) }),
  callEnded: (outcome: string) => calls.inc({ outcome }),
  request: (method: string, route: string, status: number) =>
    httpRequests.inc({ method, route, status: String(status) }),
  queue: (queue: 'database' | 'message_writer' | 'images', change: number) =>
    queueDepth.inc({ queue }, change),
  /** Follows a Redis client's connection state (ioredis's `status`) under `connection`. */
  watchRedis(connection: string, client: { status: string }): void {
    redisClients.set(connection, client);
  },
  /** Process metrics too (CPU, memory, event-loop lag, GC): only in a process that serves /metrics. */
  withDefaults(): void {
    if (defaultsCollected) return;
    defaultsCollected = true;
    collectDefaultMetrics({ register: registry, prefix: 'enishi_' });
    // Gauges whose names end in _total, which Prometheus keeps for counters (`promtool check metrics`); the
    // same figures are there by type without the suffix.
    for (const name of ['active_handles', 'active_requests', 'active_resources']) {
      registry.removeSingleMetric(`enishi_nodejs_${name}_total`);
    }
  },
  /**
   * Reports the newest daily backup in `dir` (BACKUP_DIR, shared by the instances) when scraped; `rotated`
   * lists its backups newest first (backup/daily-backups.ts).
   */
  watchBackups(dir: string, rotated: (dir: string) => Promise<string[]>): void {
    watchedBackups = { dir, rotated };
    if (!registry.getSingleMetric('enishi_backup_last_success_timestamp_seconds'))
      registry.registerMetric(lastBackup);
  },
  text: () => registry.metrics(),
  contentType: registry.contentType,
};

/** Compares a presented token with the configured one in constant time (both hashed to one length). */
export function tokenMatches(presented: string, expected: string): boolean {
  const digest = (value: string) => createHash('sha256').update(value).digest();
  return timingSafeEqual(digest(presented), digest(expected));
}
