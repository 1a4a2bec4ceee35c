import { type Entry, can } from '@enishi/contract';
import { forbidden, notFound, rateLimited } from '../errors.js';
import type { Clock } from '../lib/clock.js';
import type { RateLimiter } from '../lib/limiters.js';
import type { ApplicationRecord } from '../db/schema.js';
import type { ApplicationRepository } from '../repositories/application-repository.js';
import type { UserRepository } from '../repositories/user-repository.js';
import type { Actor } from './session-service.js';

export const APPLICATIONS_PER_PAGE = 20;

export class ApplicationService {
  constructor(
    private readonly applications: ApplicationRepository,
    private readonly perAddress: RateLimiter,
    private readonly clock: Clock,
    private readonly users: UserRepository,
  ) {}

  /** Stores an application from the public intro pages; the form needs no login, so it is rate-limited. */
  async submit(entry: Entry, address: string): Promise<void> {
    if (!(await this.perAddress.consume(address))) throw rateLimited();
    const { type, name, age, email, tel } = entry;
    await this.applications.create({ type, name, age, email, tel }, new Date(this.clock()));
  }

  /** One page of applications, newest first, for staff only. */
  async list(
    actor: Actor,
    page: number,
  ): Promise<{ rows: ApplicationRecord[]; isEnd: boolean; newCount: number }> {
    if (!can(actor, 'member.manage')) throw forbidden();
    // One extra row tells whether another page follows without a COUNT query.
    const [rows, newCount] = await Promise.all([
      this.applications.list(page * APPLICATIONS_PER_PAGE, APPLICATIONS_PER_PAGE + 1),
      this.applications.countNew(),
    ]);
    return {
      rows: rows.slice(0, APPLICATIONS_PER_PAGE),
      isEnd: rows.length <= APPLICATIONS_PER_PAGE,
      newCount,
    };
  }

  /** Staff mark an application handled, with the member they made from it (which must be a member). */
  async markHandled(actor: Actor, id: number, memberUid: number | undefined): Promise<void> {
    if (!can(actor, 'member.manage')) throw forbidden();
    if (memberUid !== undefined) {
      const member = await this.users.findById(memberUid);
      if (!member || !can(actor, 'member.profile.read', { uid: member.id, role: member.role }))
        throw notFound();
    }
    const now = new Date(this.clock());
    if (!(await this.applications.markHandled(id, actor.uid, memberUid ?? null, now))) throw notFound();
  }
}
