import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { MEMBER_SITE_LINKS, type MemberSiteLink, type SiteKind } from '@enishi/contract';
import { backupOf, type BackupConfig } from './backup-config.js';
import {
  DEFAULT_COURSE_IMAGES,
  DEFAULT_PUSH_ALLOWED_HOSTS,
  EnvSchema,
  configProblems,
  environmentInput,
  type Env,
  type LOG_LEVELS,
} from './config-env.js';
import type { IceConfig } from './lib/ice-servers.js';
import type { BurstRate, RateLimit } from './lib/limiters.js';

/** The server package folder, the same from src/ and from dist/. */
export const SERVER_ROOT = fileURLToPath(new URL('..', import.meta.url));

export type RateLimitConfig = RateLimit;

export interface EnquiryConfig {
  /** The service's base URL (its calls are `${url}/api/entrylist` …). */
  url: string;
  token: string;
  timeoutMs: number;
}

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string | undefined;
  redisUrl: string | undefined;
  publicOrigin: string;
  ownerId: string;
  ownerPassword: string | undefined;
  logLevel: (typeof LOG_LEVELS)[number];
  webDist: string;
  /** External member-site pages by menu entry; null where not configured. */
  memberSiteLinks: Record<MemberSiteLink, string | null>;
  courseImages: string[];
  memberSiteUrl: string | null;
  /** The external enquiry service, when the club has one (product.md §19.11). */
  enquiry: EnquiryConfig | null;
  /** Which women each host shows (product.md §9.6); `fallback` for hosts not named. */
  siteKinds: { byHost: Record<string, SiteKind>; fallback: SiteKind };
  trustProxy: boolean | string;
  /** The bearer token of GET /metrics; null: no metrics served. */
  metricsToken: string | null;
  /** How long a checked session is kept in memory (services/session-cache.ts); 0 turns the cache off. */
  sessionCacheMs: number;
  /** How long a login or /api/reauth makes a session fresh for sensitive changes (product.md §11.8). */
  reauthWindowMs: number;
  /** How long a room list read is kept in memory (services/room-list-cache.ts); 0 turns the cache off. */
  roomListCacheMs: number;
  ice: IceConfig;
  push: {
    /** Both keys or none (then they are made once and stored). */
    vapidKeys: { publicKey: string; privateKey: string } | null;
    subject: string;
    /** Host names an endpoint may have; `*.` matches any subdomain. */
    allowedHosts: string[];
  };
  backup: BackupConfig;
  /** The file of the key that encrypts second-factor secrets at rest (lib/secrets-key.ts). */
  secretsKeyFile: string;
  rateLimits: {
    loginPerAccount: RateLimitConfig;
    loginPerAccountAddress: RateLimitConfig;
    loginPerAddress: RateLimitConfig;
    entryPerAddress: RateLimitConfig;
    chatMessages: BurstRate;
    chatImages: BurstRate;
    calls: RateLimitConfig;
  };
}

/** A bad environment variable; the message names it. */
export class ConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConfigError';
  }
}

/** Without configuration every host is kind 2: the club's own and other women, for sales. */
export const DEFAULT_SITE_KIND: SiteKind = 2;

function siteKindsOf(map: Record<string, SiteKind> | undefined): Config['siteKinds'] {
  const { '*': fallback = DEFAULT_SITE_KIND, ...byHost } = map ?? {};
  return { byHost, fallback };
}

function parseTrustProxy(value: string | undefined): boolean | string {
  if (value === undefined || value === 'false') return false;
  return value === 'true' ? true : value;
}

/**
 * Reads the environment once at start-up. An empty variable counts as unset, so `PORT=` in a .env file
 * means the default rather than an error.
 */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const result = EnvSchema.safeParse(environmentInput(env));
  const problem = configProblems(env)[0];
  if (!result.success || problem) throw new ConfigError(problem ?? 'Invalid environment');
  const parsed = result.data;
  const publicOrigin = (parsed.PUBLIC_ORIGIN ?? `http://localhost:${parsed.PORT}`).replace(/\/$/, '');

  return {
    port: parsed.PORT,
    host: parsed.HOST,
    dataDir: path.resolve(parsed.DATA_DIR),
    databaseUrl: parsed.DATABASE_URL,
    redisUrl: parsed.REDIS_URL,
    publicOrigin,
    ownerId: parsed.OWNER_ID ?? 'owner',
    ownerPassword: parsed.OWNER_PASSWORD,
    logLevel: parsed.LOG_LEVEL,
    memberSiteLinks: Object.fromEntries(
      MEMBER_SITE_LINKS.map((key) => [key, parsed.MEMBER_SITE_LINKS?.[key] ?? null]),
    ) as Record<MemberSiteLink, string | null>,
    courseImages: parsed.COURSE_IMAGES ?? DEFAULT_COURSE_IMAGES,
    memberSiteUrl: parsed.MEMBER_SITE_URL ?? null,
    enquiry: enquiryOf(parsed),
    siteKinds: siteKindsOf(parsed.SITE_KINDS),
    webDist: path.resolve(parsed.WEB_DIST ?? path.join(SERVER_ROOT, '../web/dist')),
    trustProxy: parseTrustProxy(parsed.TRUST_PROXY),
    metricsToken: parsed.METRICS_TOKEN ?? null,
    sessionCacheMs: parsed.SESSION_CACHE_MS,
    reauthWindowMs: parsed.REAUTH_WINDOW_S * 1000,
    roomListCacheMs: parsed.ROOM_LIST_CACHE_MS,
    ice: {
      servers: parsed.ICE_SERVERS ?? [],
      turnSecret: parsed.TURN_SECRET ?? null,
      turnTtlSeconds: parsed.TURN_TTL_SECONDS,
    },
    push: pushOf(parsed, publicOrigin),
    backup: backupOf(parsed, (message) => {
      throw new ConfigError(message);
    }),
    secretsKeyFile: path.resolve(parsed.SECRETS_KEY_FILE ?? path.join(parsed.DATA_DIR, 'secrets.key')),
    rateLimits: rateLimitsOf(parsed),
  };
}

function enquiryOf(parsed: Env): EnquiryConfig | null {
  if (!parsed.ENQUIRY_SERVICE_URL) return null;
  return {
    url: parsed.ENQUIRY_SERVICE_URL.replace(/\/+$/, ''),
    token: parsed.ENQUIRY_SERVICE_TOKEN ?? '',
    timeoutMs: parsed.ENQUIRY_TIMEOUT_MS,
  };
}

function pushOf(parsed: Env, publicOrigin: string): Config['push'] {
  return {
    vapidKeys:
      parsed.VAPID_PUBLIC_KEY && parsed.VAPID_PRIVATE_KEY
        ? { publicKey: parsed.VAPID_PUBLIC_KEY, privateKey: parsed.VAPID_PRIVATE_KEY }
        : null,
    // Push services want a way to reach the operator; the app's own https origin is one.
    subject:
      parsed.VAPID_SUBJECT ??
      (publicOrigin.startsWith('https:') ? publicOrigin : 'mailto:push@enishi.invalid'),
    allowedHosts: parsed.PUSH_ALLOWED_HOSTS
      ? parsed.PUSH_ALLOWED_HOSTS.split(',').map((host) => host.trim().toLowerCase())
      : DEFAULT_PUSH_ALLOWED_HOSTS,
  };
}

function rateLimitsOf(parsed: Env): Config['rateLimits'] {
  return {
    loginPerAccount: {
      max: parsed.LOGIN_FAILURES_PER_ACCOUNT,
      windowMs: parsed.LOGIN_FAILURE_WINDOW_SECONDS * 1000,
    },
    loginPerAccountAddress: {
      max: parsed.LOGIN_FAILURES_PER_ACCOUNT_ADDRESS,
      windowMs: parsed.LOGIN_PAUSE_SECONDS * 1000,
    },
    loginPerAddress: {
      max: parsed.LOGIN_ATTEMPTS_PER_ADDRESS,
      windowMs: parsed.LOGIN_ADDRESS_WINDOW_SECONDS * 1000,
    },
    entryPerAddress: { max: parsed.ENTRIES_PER_ADDRESS, windowMs: parsed.ENTRY_WINDOW_SECONDS * 1000 },
    chatMessages: {
      points: parsed.CHAT_MESSAGES_PER_SECOND,
      duration: 1,
      burst: parsed.CHAT_MESSAGE_BURST,
    },
    chatImages: { points: parsed.CHAT_IMAGES_PER_MINUTE, duration: 60, burst: parsed.CHAT_IMAGE_BURST },
    calls: { max: parsed.CALLS_PER_MINUTE, windowMs: 60_000 },
  };
}
