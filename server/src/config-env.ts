import { z } from 'zod';
import { IceServer, MEMBER_SITE_LINKS, SITE_KINDS, loginId, password } from '@enishi/contract';
import { BACKUP_ENV } from './backup-config.js';

/*
 * The environment variables the server reads and the rules each must meet (product.md §10,
 * docs/operations.md); config.ts turns a valid environment into the Config the server runs with.
 */

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

const int = (min: number, max: number) =>
  z.coerce
    .number({ error: `must be an integer from ${min} to ${max}` })
    .int(`must be an integer from ${min} to ${max}`)
    .min(min, `must be an integer from ${min} to ${max}`)
    .max(max, `must be an integer from ${min} to ${max}`);

const postgresUrl = z.string().regex(/^postgres(ql)?:\/\/\S+$/, 'must be a postgres:// or postgresql:// URL');

/** Variables whose value must never be echoed back in an error message. */
const SECRET = new Set([
  'DATABASE_URL',
  'REDIS_URL',
  'OWNER_PASSWORD',
  'VAPID_PRIVATE_KEY',
  'TURN_SECRET',
  'METRICS_TOKEN',
  'BACKUP_PASSPHRASE',
]);

/** The public push services of Apple, Google, Mozilla and Microsoft (product.md §16.2). */
export const DEFAULT_PUSH_ALLOWED_HOSTS = [
  'web.push.apple.com',
  'fcm.googleapis.com',
  'updates.push.services.mozilla.com',
  '*.notify.windows.com',
];
const base64url = (length: number) =>
  z.string().regex(new RegExp(`^[A-Za-z0-9_-]{${length}}$`), 'must be a base64url VAPID key');

/** A JSON value in a variable; the message says what was expected. */
const json = <T extends z.ZodType>(schema: T, expected: string) =>
  z.string().transform((value, ctx): z.output<T> => {
    let parsed: unknown;
    try {
      parsed = JSON.parse(value);
    } catch {
      ctx.addIssue({ code: 'custom', message: `must be JSON: ${expected}` });
      return z.NEVER;
    }
    const result = schema.safeParse(parsed);
    if (!result.success) {
      ctx.addIssue({ code: 'custom', message: `must be ${expected}` });
      return z.NEVER;
    }
    return result.data;
  });

const iceUrl = z
  .string()
  .regex(/^(stuns?|turns?):[^\s]+$/, 'must be stun:, stuns:, turn: or turns: URLs')
  .max(500);
const httpUrl = z.url({ protocol: /^https?$/ }).max(2000);
/** The course images shipped with the web app (web/public/course). */
export const DEFAULT_COURSE_IMAGES = [1, 2, 3, 4, 5, 6].map((n) => `/course/course-${n}.webp`);

export const EnvSchema = z.object({
  PORT: int(1, 65_535).default(8080),
  HOST: z.string().min(1).default('0.0.0.0'),
  DATA_DIR: z.string().min(1).default('./data'),
  DATABASE_URL: postgresUrl.optional(),
  REDIS_URL: z
    .string()
    .regex(/^rediss?:\/\/\S+$/, 'must be a redis:// or rediss:// URL')
    .optional(),
  PUBLIC_ORIGIN: z
    .url({ protocol: /^https?$/, error: 'must be an http:// or https:// origin' })
    .refine((value) => new URL(value).origin === value.replace(/\/$/, ''), {
      message: 'must be an origin only (scheme, host and port; no path)',
    })
    .optional(),
  // The same rules as the member forms (product.md §5), so the owner can later be edited like anyone else.
  OWNER_ID: z
    .string()
    .refine((value) => loginId.safeParse(value).success, 'must be letters, digits and hyphen, at most 24')
    .optional(),
  OWNER_PASSWORD: z
    .string()
    .refine((value) => password.safeParse(value).success, 'must be letters, digits and . ? / -, 8 to 24')
    .optional(),
  // The male members' mypage menu opens these external member-site pages; one not set is shown disabled.
  MEMBER_SITE_LINKS: json(
    z.partialRecord(z.enum(MEMBER_SITE_LINKS), httpUrl).refine((links) => Object.keys(links).length > 0),
    `an object with some of ${MEMBER_SITE_LINKS.join(', ')} mapped to http(s) URLs`,
  ).optional(),
  // The course page's images: paths on this server or https URLs (those origins are allowed to load).
  COURSE_IMAGES: json(
    z
      .array(z.union([z.string().regex(/^\/[^/\s]\S*$/), z.url({ protocol: /^https$/ }).max(2000)]))
      .min(1)
      .max(12),
    'a list of 1 to 12 image paths (/...) or https URLs',
  ).optional(),
  // The external member site that /member frames for men (product.md §2.1); its origin alone may be framed.
  MEMBER_SITE_URL: z
    .url({ protocol: /^https?$/, error: 'must be an http:// or https:// URL' })
    .max(2000)
    .optional(),
  // The club's external enquiry service (product.md §19.11): the women's list, details and favourites from it.
  ENQUIRY_SERVICE_URL: z
    .url({ protocol: /^https?$/, error: 'must be an http:// or https:// URL' })
    .max(2000)
    .optional(),
  ENQUIRY_SERVICE_TOKEN: z.string().min(1).max(500).optional(),
  ENQUIRY_TIMEOUT_MS: int(100, 60_000).default(5000),
  // Site kinds (product.md §9.6, decision 014): host name -> kind 1-5; "*" is every other host.
  SITE_KINDS: json(
    z.record(
      z.string().regex(/^(\*|[a-z0-9]([a-z0-9.-]*[a-z0-9])?)$/),
      z.union(SITE_KINDS.map((kind) => z.literal(kind))),
    ),
    'an object of lower-case host names (or "*") mapped to site kinds 1 to 5',
  ).optional(),
  LOG_LEVEL: z.enum(LOG_LEVELS, { error: `must be one of ${LOG_LEVELS.join(', ')}` }).default('info'),
  WEB_DIST: z.string().min(1).optional(),
  // Behind a reverse proxy: 'true' (trust every hop) or a comma-separated list of proxy addresses/CIDRs,
  // so that the per-address rate limits see the client's address instead of the proxy's.
  TRUST_PROXY: z.string().optional(),
  // How long (ms) an instance believes a session it checked without reading it again (decision 002); 0: never.
  SESSION_CACHE_MS: int(0, 5_000).default(5_000),
  // How long (s) a login or /api/reauth counts as fresh proof for sensitive changes (product.md §11.8).
  REAUTH_WINDOW_S: int(1, 3_600).default(300),
  // How long (ms) an instance believes a room list it read without reading it again (room-list-cache.ts); 0: never.
  ROOM_LIST_CACHE_MS: int(0, 5_000).default(5_000),
  // Login and application rate limits. A benchmark raises them; production keeps the defaults.
  // Per account: attempts from addresses it has not logged in from lately (stops guessing from many places).
  LOGIN_FAILURES_PER_ACCOUNT: int(1, 1_000_000).default(100),
  LOGIN_FAILURE_WINDOW_SECONDS: int(1, 86_400).default(3600),
  // Per account and address: that address pauses, the account's owner elsewhere does not.
  LOGIN_FAILURES_PER_ACCOUNT_ADDRESS: int(1, 1_000_000).default(5),
  LOGIN_PAUSE_SECONDS: int(1, 86_400).default(300),
  LOGIN_ATTEMPTS_PER_ADDRESS: int(1, 1_000_000).default(30),
  LOGIN_ADDRESS_WINDOW_SECONDS: int(1, 86_400).default(60),
  ENTRIES_PER_ADDRESS: int(1, 1_000_000).default(10),
  ENTRY_WINDOW_SECONDS: int(1, 86_400).default(3600),
  // Fair use of the chat socket per member (product.md §9.8): rates with bursts on messages and on images.
  CHAT_MESSAGES_PER_SECOND: int(1, 1_000_000).default(10),
  CHAT_MESSAGE_BURST: int(1, 1_000_000).default(30),
  CHAT_IMAGES_PER_MINUTE: int(1, 1_000_000).default(20),
  CHAT_IMAGE_BURST: int(1, 1_000_000).default(20),
  // Push (product.md §16): the VAPID pair (P-256, base64url); unset, one is made once and kept in the database.
  VAPID_PUBLIC_KEY: base64url(87).optional(),
  VAPID_PRIVATE_KEY: base64url(43).optional(),
  VAPID_SUBJECT: z
    .string()
    .regex(/^(mailto:\S+|https:\/\/\S+)$/, 'must be a mailto: or https:// URL')
    .optional(),
  PUSH_ALLOWED_HOSTS: z
    .string()
    .regex(
      /^(\*\.)?[A-Za-z0-9.-]+(:\d{1,5})?(,\s*(\*\.)?[A-Za-z0-9.-]+(:\d{1,5})?)*$/,
      'must be comma-separated host names (a port only where it is not 443)',
    )
    .optional(),
  // Voice calls (product.md §17.9): RTCIceServer entries; TURN ones get per-user credentials with TURN_SECRET.
  ICE_SERVERS: json(
    z
      .array(
        IceServer.extend({
          urls: z.union([iceUrl, z.array(iceUrl).min(1)]),
        }).strict(),
      )
      .max(10),
    'a list of RTCIceServer objects ({"urls": "stun:..." | "turn:..." | [...], "username"?, "credential"?})',
  ).optional(),
  TURN_SECRET: z.string().min(16, 'must be at least 16 characters').optional(),
  TURN_TTL_SECONDS: int(60, 7 * 86_400).default(3600),
  CALLS_PER_MINUTE: int(1, 1_000_000).default(6),
  // GET /metrics (product.md §10.3) answers only `Authorization: Bearer <this>`; unset, there is no /metrics.
  METRICS_TOKEN: z
    .string()
    .regex(/^[\x21-\x7e]{16,256}$/, 'must be 16 to 256 printable ASCII characters, no spaces')
    .optional(),
  // Backups: the variables of backup-config.ts.
  ...BACKUP_ENV,
  // The key that encrypts second-factor secrets in the database (decision 032); made on the first start.
  SECRETS_KEY_FILE: z.string().min(1).optional(),
});

/** The environment as the schema reads it, defaults filled in. */
export type Env = z.output<typeof EnvSchema>;

/** Every variable the server reads, from the schema itself. */
export const KNOWN_VARIABLES: readonly string[] = Object.keys(EnvSchema.shape);

/** The variables the server reads that are set: an empty one counts as unset. */
export function environmentInput(env: NodeJS.ProcessEnv): Record<string, string> {
  const input: Record<string, string> = {};
  for (const key of KNOWN_VARIABLES) {
    const value = env[key]?.trim();
    if (value) input[key] = value;
  }
  return input;
}

/** Every problem of the environment, one line each naming its variable (secrets never echoed). */
export function configProblems(env: NodeJS.ProcessEnv): string[] {
  const input = environmentInput(env);
  const result = EnvSchema.safeParse(input);
  const problems = (result.error?.issues ?? []).map((issue) => {
    const name = String(issue.path[0] ?? 'environment');
    const got = SECRET.has(name) || input[name] === undefined ? '' : ` (got "${input[name]}")`;
    return `Invalid environment variable ${name}: ${issue.message}${got}`;
  });
  if ((input.VAPID_PUBLIC_KEY === undefined) !== (input.VAPID_PRIVATE_KEY === undefined)) {
    problems.push('Invalid environment variable VAPID_PRIVATE_KEY: set both VAPID keys or neither');
  }
  return problems;
}
