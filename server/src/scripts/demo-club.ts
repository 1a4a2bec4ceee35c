import type { Database } from '../db/client.js';
import type { Services } from '../composition/container.js';
import type { Actor } from '../services/session-service.js';

/* What every step of the demo (scripts/demo.ts) works with: its people, its clock and the club's services. */

export const HOUR = 60 * 60 * 1000;
export const DAY = 24 * HOUR;

/** Someone the demo created, with the password to print. */
export interface DemoUser {
  actor: Actor;
  password: string;
}

export type Login = { id: string; password: string; name: string; role: number };

/** The demo's clock: the club's history starts ten days ago and moves forward as things happen. */
export class DemoClock {
  now = Date.now() - 10 * DAY;

  /** Moves to a moment in the past (never later than a minute ago). */
  at(time: number) {
    this.now = Math.min(time, Date.now() - 60_000);
  }
}

/** What every step of the demo works with. */
export interface DemoClub {
  db: Database;
  services: Services;
  clock: DemoClock;
  logins: Login[];
}

export interface DemoPeople {
  admin: DemoUser;
  staff: DemoUser;
  men: DemoUser[];
  women: DemoUser[];
}

export const actorOf = (user: {
  id: number;
  loginId: string;
  role: number;
  rank: number;
  name: string;
}): Actor => ({
  uid: user.id,
  loginId: user.loginId,
  role: user.role,
  rank: user.rank,
  name: user.name,
  image: null,
  sessionId: 'demo',
});
