import type { Config } from '../config.js';
import type { Database } from '../db/client.js';
import { systemClock, type Clock } from '../lib/clock.js';
import { MemoryRateLimiter } from '../lib/rate-limit.js';
import { ApplicationRepository } from '../repositories/application-repository.js';
import { SessionRepository } from '../repositories/session-repository.js';
import { UserRepository } from '../repositories/user-repository.js';
import { ApplicationService } from './application-service.js';
import { LoginService } from './login-service.js';
import { SessionService } from './session-service.js';
import { UserService } from './user-service.js';

export interface Services {
  sessions: SessionService;
  login: LoginService;
  users: UserService;
  applications: ApplicationService;
}

/** Wires repositories into services. The one place that knows which implementation backs what. */
export function createServices(
  config: Pick<Config, 'rateLimits'>,
  db: Database,
  clock: Clock = systemClock,
): Services {
  const userRepository = new UserRepository(db);
  const sessions = new SessionService(new SessionRepository(db), clock);
  const { rateLimits } = config;
  return {
    sessions,
    login: new LoginService(userRepository, sessions, {
      perAccount: new MemoryRateLimiter(rateLimits.loginPerAccount, clock),
      perAddress: new MemoryRateLimiter(rateLimits.loginPerAddress, clock),
    }),
    users: new UserService(userRepository, clock),
    applications: new ApplicationService(
      new ApplicationRepository(db),
      new MemoryRateLimiter(rateLimits.entryPerAddress, clock),
      clock,
    ),
  };
}
