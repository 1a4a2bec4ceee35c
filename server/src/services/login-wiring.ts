import { randomBytes } from 'node:crypto';
import { ja } from '@enishi/contract';
import type { Config } from '../config.js';
import type { Database, DatabaseConnections } from '../db/client.js';
import type { Clock } from '../lib/clock.js';
import { DeviceTokens } from '../lib/device-tokens.js';
import type { RateLimiters } from '../lib/rate-limit.js';
import { passkeySite } from '../lib/webauthn.js';
import type { Delivery } from '../realtime/delivery.js';
import type { Fanout } from '../realtime/fanout.js';
import { SecondFactorRepository } from '../repositories/second-factor-repository.js';
import { SecretRepository } from '../repositories/secret-repository.js';
import { SessionRepository } from '../repositories/session-repository.js';
import type { UserRepository } from '../repositories/user-repository.js';
import { LoginService } from './login-service.js';
import { SecondFactorService } from './second-factor-service.js';
import { SessionCache } from './session-cache.js';
import { SessionService } from './session-service.js';

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
): SessionService {
  const cache = new SessionCache(cacheMs);
  delivery.watchSessions((event) => cache.hear(event));
  fanout.onHealth?.((healthy) => cache.setTrusted(healthy));
  return new SessionService(new SessionRepository(db), clock, delivery, cache);
}

/** Logging in: passwords and their throttles, device tokens, the second factor (product.md §11.4, §11.7). */
export function loginParts(
  db: DatabaseConnections['db'],
  deps: {
    sessions: SessionService;
    users: UserRepository;
    limiters: RateLimiters;
    config: Pick<Config, 'rateLimits' | 'publicOrigin'>;
  },
  clock: Clock,
): { login: LoginService; secondFactor: SecondFactorService } {
  const secondFactor = new SecondFactorService(
    new SecondFactorRepository(db),
    deps.sessions,
    passkeySite(deps.config.publicOrigin, ja.app.name),
    clock,
  );
  const login = new LoginService(
    deps.users,
    deps.sessions,
    loginLimits(deps.limiters, deps.config.rateLimits),
    deviceTokens(new SecretRepository(db)),
    secondFactor,
  );
  return { login, secondFactor };
}

/** Login throttles (product.md §11.4): per address, per account and address, per account; known addresses. */
function loginLimits(limiters: RateLimiters, rateLimits: Config['rateLimits']) {
  return {
    perAddress: limiters('login-address', rateLimits.loginPerAddress),
    perAccountAddress: limiters('login-account-address', rateLimits.loginPerAccountAddress),
    perAccount: limiters('login-account', rateLimits.loginPerAccount),
    knownAddresses: limiters('login-known', { max: 1, windowMs: KNOWN_ADDRESS_MS }),
    perDevice: limiters('login-device', rateLimits.loginPerAccountAddress),
  };
}

/** Device tokens signed with a key kept in the database (like the VAPID keys): every instance uses one. */
function deviceTokens(secrets: SecretRepository): DeviceTokens {
  let key: Promise<Buffer> | undefined;
  return new DeviceTokens(() => {
    key ??= secrets
      .getOrCreate('login-device-key', randomBytes(32).toString('base64url'))
      .then((value) => Buffer.from(value, 'base64url'))
      .catch((error: unknown) => {
        key = undefined;
        throw error;
      });
    return key;
  });
}
