import { randomBytes } from 'node:crypto';
import { ja } from '@enishi/contract';
import type { Config } from '../config.js';
import type { Database, DatabaseConnections } from '../db/client.js';
import type { Clock } from '../lib/clock.js';
import { DeviceTokens } from '../lib/device-tokens.js';
import { perWindow, type MakeLimiter } from '../lib/limiters.js';
import { secretsKeyOf } from '../lib/secrets-key.js';
import { passkeySite } from '../lib/webauthn.js';
import type { Delivery } from '../bus/delivery.js';
import type { Fanout } from '../bus/fanout.js';
import { NoticeRepository } from '../repositories/notice-repository.js';
import { SecondFactorRepository } from '../repositories/second-factor-repository.js';
import { SecretRepository } from '../repositories/secret-repository.js';
import { SessionRepository } from '../repositories/session-repository.js';
import { UserRepository } from '../repositories/user-repository.js';
import { AccountNotices, type AccountPush } from '../services/account-notices.js';
import { AccountFactors } from '../services/account-factors.js';
import { FactorAnswers } from '../services/factor-answers.js';
import { LoginPasswords } from '../services/login-passwords.js';
import { LoginService } from '../services/login-service.js';
import { LoginTickets } from '../services/login-tickets.js';
import { PasskeyLogin } from '../services/passkey-login.js';
import { PasskeySetup } from '../services/passkey-setup.js';
import { ReauthService } from '../services/reauth-service.js';
import { RecoveryCodes } from '../services/recovery-codes.js';
import { SecondStepLock, secondStepCounters, type SecondStepCounters } from '../services/second-step-lock.js';
import { StaffRequirement } from '../services/staff-requirement.js';
import { TotpSetup } from '../services/totp-setup.js';
import { SessionCache } from '../services/session-cache.js';
import { SessionService } from '../services/session-service.js';

/*
 * How sessions and logins are wired (container.ts uses these): the session cache and the events that drop
 * it, login throttles, device tokens and the second factor (product.md §11.4, §11.7).
 */

/** How long a successful login makes its address one the account may keep trying from. */
const KNOWN_ADDRESS_MS = 30 * 24 * 60 * 60 * 1000;

/** Sessions, with the ones recently read kept in memory and dropped on every instance by the events that end or change them. */
export function sessionService(
  cacheMs: number,
  { db, clock, delivery, fanout }: { db: Database; clock: Clock; delivery: Delivery; fanout: Fanout },
  reauthWindowMs?: number,
): SessionService {
  const cache = new SessionCache(cacheMs);
  delivery.watchSessions((event) => cache.hear(event));
  fanout.onHealth?.((healthy) => cache.setTrusted(healthy));
  return new SessionService(new SessionRepository(db), clock, delivery, cache, reauthWindowMs);
}

/** Logins: the counters of wrong second-step answers (shared with Redis, second-step-lock.ts). */
export interface LoginDeps {
  secondStepCounters?: SecondStepCounters;
}

/** Sessions and logins as the services container holds them. */
export type AccountServices = ReturnType<typeof accountParts>;

/** Sessions and logins together (container.ts): the sessions come first, the logins use them. */
export function accountParts(
  config: Pick<Config, 'rateLimits' | 'publicOrigin' | 'sessionCacheMs' | 'secretsKeyFile'> &
    Partial<Pick<Config, 'reauthWindowMs'>>,
  core: {
    db: Database;
    clock: Clock;
    delivery: Delivery;
    fanout: Fanout;
    limiters: MakeLimiter;
    onError: (error: unknown) => void;
    push: AccountPush | null;
  },
  deps: LoginDeps,
) {
  const { db, clock, delivery, fanout, limiters, onError, push } = core;
  const sessions = sessionService(
    config.sessionCacheMs,
    { db, clock, delivery, fanout },
    config.reauthWindowMs,
  );
  const users = new UserRepository(db);
  const logins = loginParts(db, { ...deps, sessions, users, limiters, config, onError, push }, clock);
  return { sessions, ...logins };
}

/** What loginParts is given: sessions and users, throttles, settings, and how account changes are told. */
interface LoginWiringDeps {
  sessions: SessionService;
  users: UserRepository;
  limiters: MakeLimiter;
  config: Pick<Config, 'rateLimits' | 'publicOrigin' | 'secretsKeyFile'>;
  /** Pushes to a person's other devices when how they log in changes. */
  push: AccountPush | null;
  /** Wrong second-step answers, counted across instances when given a shared counter. */
  secondStepCounters?: SecondStepCounters;
  onError?: (error: unknown) => void;
}

/**
 * Logging in: passwords and their throttles, device tokens, the second factor (product.md §11.4, §11.7).
 * The login reads top to bottom in login-service.ts; docs/ARCHITECTURE.md names its files in order.
 */
export function loginParts(db: DatabaseConnections['db'], deps: LoginWiringDeps, clock: Clock) {
  const noticeRepository = new NoticeRepository(db);
  const notices = new AccountNotices(noticeRepository, deps.push, clock, deps.onError);
  const repo = new SecondFactorRepository(db, secretsKeyOf(deps.config.secretsKeyFile));
  const site = passkeySite(deps.config.publicOrigin, ja.app.name);
  const lock = new SecondStepLock(deps.secondStepCounters ?? secondStepCounters(), noticeRepository, clock);
  const answers = new FactorAnswers(repo, site, clock, lock);
  const factors = new AccountFactors(repo);
  const staffRequirement = new StaffRequirement(repo, deps.sessions, factors, notices, clock);
  const recoveryCodes = new RecoveryCodes(repo, deps.sessions, factors, notices);
  const change = {
    sessions: deps.sessions,
    clock,
    factors,
    recovery: recoveryCodes,
    staff: staffRequirement,
    notices,
  };
  const loginTickets = new LoginTickets(repo, clock, answers);
  const devices = deviceTokens(new SecretRepository(db));
  const passwords = new LoginPasswords(
    deps.users,
    loginLimits(deps.limiters, deps.config.rateLimits),
    devices,
  );
  const login = new LoginService({
    passwords,
    factors,
    tickets: loginTickets,
    passkeys: new PasskeyLogin(repo, site, clock, answers),
    staff: staffRequirement,
    users: deps.users,
    sessions: deps.sessions,
    devices,
  });
  return {
    login,
    loginTickets,
    factors,
    totp: new TotpSetup(repo, site, answers, change),
    passkeySetup: new PasskeySetup(repo, site, change),
    recoveryCodes,
    staffRequirement,
    reauth: new ReauthService(passwords, factors, answers, deps.sessions),
    notices,
  };
}

/** Login throttles (product.md §11.4): per address, per account and address, per account; known addresses. */
function loginLimits(limiter: MakeLimiter, rateLimits: Config['rateLimits']) {
  return {
    perAddress: limiter(perWindow('login-address', rateLimits.loginPerAddress)),
    perAccountAddress: limiter(perWindow('login-account-address', rateLimits.loginPerAccountAddress)),
    perAccount: limiter(perWindow('login-account', rateLimits.loginPerAccount)),
    knownAddresses: limiter(perWindow('login-known', { max: 1, windowMs: KNOWN_ADDRESS_MS })),
    perDevice: limiter(perWindow('login-device', rateLimits.loginPerAccountAddress)),
  };
}

/** The secret row holding the device tokens' key (rotated by scripts/rotate-key.ts). */
export const DEVICE_TOKEN_SECRET = 'login-device-key';

/** Device tokens signed with a key kept in the database (like the VAPID keys): every instance uses one. */
export function deviceTokens(secrets: SecretRepository): DeviceTokens {
  let key: Promise<Buffer> | undefined;
  return new DeviceTokens(() => {
    key ??= secrets
      .getOrCreate(DEVICE_TOKEN_SECRET, randomBytes(32).toString('base64url'))
      .then((value) => Buffer.from(value, 'base64url'))
      .catch((error: unknown) => {
        key = undefined;
        throw error;
      });
    return key;
  });
}
