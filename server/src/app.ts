import type { SecondStepCounters } from './services/second-step-lock.js';
import { deskRoutes } from './routes/desk-routes.js';
import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import compress from '@fastify/compress';
import Fastify, {
  LogController,
  type FastifyBaseLogger,
  type FastifyInstance,
  type onRouteHookHandler,
} from 'fastify';
import type { Config } from './config.js';
import type { DatabaseConnections } from './db/client.js';
import { apiCalls } from './http/calls.js';
import { installErrorHandler } from './http/errors.js';
import { installJsonParser, PRE_SESSION_BYTES } from './http/request-bodies.js';
import { installSecurityHeaders } from './http/security-headers.js';
import { installWebApp } from './http/web-app.js';
import type { Clock } from './lib/clock.js';
import type { MakeLimiter } from './lib/limiters.js';
import { createLogger } from './logger.js';
import { installChatSocket } from './realtime/chat-socket.js';
import { InProcessFanout, type Fanout } from './bus/fanout.js';
import { applicationRoutes } from './routes/application-routes.js';
import { authRoutes } from './routes/auth-routes.js';
import { secondFactorRoutes } from './routes/second-factor-routes.js';
import { reauthRoutes } from './routes/reauth-routes.js';
import { bannerRoutes } from './routes/banner-routes.js';
import { broadcastRoutes } from './routes/broadcast-routes.js';
import { calendarRoutes } from './routes/calendar-routes.js';
import { deskTalkRoutes } from './routes/desk-talk-routes.js';
import { reportRoutes } from './routes/report-routes.js';
import { memberImportRoutes } from './routes/member-import-routes.js';
import { clubConfigRoutes, courseImageOrigins } from './routes/club-config-routes.js';
import { contentImageRoutes } from './routes/content-image-routes.js';
import { stampRoutes } from './routes/stamp-routes.js';
import { profilePhotoRoutes, profileRoutes } from './routes/profile-routes.js';
import { conversationRoutes } from './routes/conversation-routes.js';
import { groupRoutes } from './routes/group-routes.js';
import { mediaRoutes } from './routes/media-routes.js';
import { memberAdminRoutes, profileImageRoutes } from './routes/member-admin-routes.js';
import { newsRoutes } from './routes/news-routes.js';
import { systemRoutes } from './routes/system-routes.js';
import { metricsRoutes } from './routes/metrics-routes.js';
import { metrics } from './lib/metrics.js';
import { Readiness } from './services/readiness.js';
import { userRoutes } from './routes/user-routes.js';
import { pushRoutes } from './routes/push-routes.js';
import { settingRoutes } from './routes/setting-routes.js';
import { womenRoutes } from './routes/women-routes.js';
import {
  createServices,
  type CallDeps,
  type FairUseDeps,
  type PushDeps,
  type Services,
} from './composition/container.js';

/** Default request body limit. Session calls that take images raise it for their own route (http/calls.ts). */
export const BODY_LIMIT_BYTES = PRE_SESSION_BYTES;

export interface AppDeps {
  database: DatabaseConnections;
  logger?: FastifyBaseLogger;
  /** Tests move time with their own clock. */
  clock?: Clock;
  /** Realtime fan-out; in-process unless given (a shared one lets several instances talk). */
  fanout?: Fanout;
  /** Rate-limit counters; in memory unless given (shared ones count across instances). */
  rateLimiters?: MakeLimiter;
  /** Fair use (token buckets, socket seats); in memory unless given (shared ones count across instances). */
  fairUse?: FairUseDeps;
  /** Push: a shared foreground state with Redis; tests pass an agent that trusts their receiver. */
  push?: PushDeps;
  /** How long the chat socket waits for its session frame (product.md §15.2: 5 s); tests shorten it. */
  socketAuthTimeoutMs?: number;
  /** Sees every route as it is added (the fuzz test of every call finds them this way). */
  onRoute?: onRouteHookHandler;
  /** How often the chat socket looks for expired sessions (30 s); tests shorten it. */
  socketSweepMs?: number;
  /** Voice calls: a shared call store and presence with Redis; tests shorten the ring timing. */
  calls?: CallDeps;
  /** Wrong second-step answers; in memory unless given (a shared one counts across instances). */
  secondStepCounters?: SecondStepCounters;
}

declare module 'fastify' {
  interface FastifyInstance {
    services: Services;
  }
}

/** A request id a proxy in front gave (nginx's $request_id), if it looks like one; else a fresh one. */
function requestId(request: IncomingMessage): string {
  const given = request.headers['x-request-id'];
  return typeof given === 'string' && /^[A-Za-z0-9._-]{8,64}$/.test(given) ? given : randomUUID();
}

/** The whole HTTP server without a port: main.ts listens on it, tests call it with `app.inject`. */
export async function buildApp(config: Config, deps: AppDeps): Promise<FastifyInstance> {
  const app = Fastify({
    loggerInstance: deps.logger ?? createLogger(config.logLevel),
    bodyLimit: BODY_LIMIT_BYTES,
    trustProxy: config.trustProxy,
    // Every log line of a request carries `reqId`; the same id as nginx's when it sends X-Request-Id.
    genReqId: requestId,
    // One log line per request (below) instead of Fastify's two.
    logController: new LogController({ disableRequestLogging: true }),
  });

  if (deps.onRoute) app.addHook('onRoute', deps.onRoute);
  // Every call is JSON; without this Fastify would also accept text/plain bodies as strings.
  app.removeContentTypeParser('text/plain');
  installJsonParser(app);

  const log = app.log;
  const fanout =
    deps.fanout ?? new InProcessFanout((error) => log.error({ err: error }, 'realtime subscriber failed'));
  const services = createServices(
    config,
    deps.database,
    deps.clock,
    fanout,
    deps.rateLimiters,
    {
      onError: (error) => log.error({ err: error }, 'delivery or push failed'),
      ...deps.push,
    },
    deps.calls,
    deps.fairUse,
    { secondStepCounters: deps.secondStepCounters },
  );
  app.decorate('services', services);
  app.addHook('onClose', async () => {
    await services.broadcastScheduler.stop();
    services.delivery.stop();
    await services.calls.close();
  });
  await services.media.loadKey();
  // The club's own stamps, once, at the very first start (product.md §12.8).
  await services.stamps.seedClubSet();
  await services.delivery.start();
  // Scheduled bulk sends: those that fell due while no instance ran go out now (product.md §4.6).
  services.broadcastScheduler.start();

  installErrorHandler(app);
  installSecurityHeaders(
    app,
    config.publicOrigin,
    [...courseImageOrigins(config), ...(config.enquiry ? [new URL(config.enquiry.url).origin] : [])],
    config.memberSiteUrl ? [new URL(config.memberSiteUrl).origin] : [],
  );
  await app.register(compress, { global: true, threshold: 1024 });

  logRequests(app);
  routesOf(app, config, services, deps, fanout);
  await installChatSocket(app, services, {
    publicOrigin: config.publicOrigin,
    authTimeoutMs: deps.socketAuthTimeoutMs,
    sweepMs: deps.socketSweepMs,
    clock: deps.clock,
  });
  await installWebApp(app, config.webDist);

  return app;
}

/** One log line per request, with the request id (nginx's when given) also in the answer, and its metric. */
function logRequests(app: FastifyInstance): void {
  app.addHook('onRequest', async (request, reply) => {
    reply.header('x-request-id', request.id);
  });
  app.addHook('onResponse', async (request, reply) => {
    // The route's pattern, not the URL: a signed image's query is a capability and ids make endless series.
    const route = request.routeOptions.url ?? '(none)';
    metrics.request(request.method, route, reply.statusCode);
    request.log.info(
      {
        method: request.method,
        route,
        path: request.url.split('?')[0],
        status: reply.statusCode,
        ms: Math.round(reply.elapsedTime),
      },
      'request',
    );
  });
}

/** Every HTTP route: the system's and the metrics', then the calls (http/calls.ts) by part of the product. */
function routesOf(
  app: FastifyInstance,
  config: Config,
  services: Services,
  deps: Pick<AppDeps, 'database' | 'clock'>,
  fanout: Fanout,
): void {
  systemRoutes(app, new Readiness(deps.database.db, fanout));
  metricsRoutes(app, config.metricsToken);
  const calls = apiCalls(app, services.sessions);
  authRoutes(calls, services);
  secondFactorRoutes(calls, services);
  reauthRoutes(calls, services);
  pushRoutes(calls, services);
  userRoutes(calls, services);
  applicationRoutes(calls, services);
  conversationRoutes(calls, services);
  mediaRoutes(app, services);
  newsRoutes(calls, services);
  bannerRoutes(calls, services);
  broadcastRoutes(calls, services);
  contentImageRoutes(app, services);
  stampRoutes(app, calls, services);
  memberAdminRoutes(calls, services);
  profileImageRoutes(app, services);
  groupRoutes(calls, services);
  profileRoutes(calls, services);
  profilePhotoRoutes(app, services);
  deskRoutes(calls, services);
  clubConfigRoutes(calls, config, deps.clock);
  womenRoutes(calls, services, config.siteKinds);
  settingRoutes(calls, services, config.siteKinds);
  calendarRoutes(calls, services);
  deskTalkRoutes(calls, services);
  reportRoutes(calls, services);
  memberImportRoutes(calls, services);
}
