import { can, ja, jaMember, type SecondFactor } from '@enishi/contract';
import { AppError, badRequest } from '../errors.js';
import type { Clock } from '../lib/clock.js';
import type { SecondFactorRepository } from '../repositories/second-factor-repository.js';
import type { AccountFactors } from './account-factors.js';
import type { AccountNotices } from './account-notices.js';
import type { Actor, SessionService } from './session-service.js';

/**
 * The owner's requirement of a second factor for staff (product.md §11.7): the switch, and what it means for
 * a login (a session that may only set a factor up) and for removing one's last factor.
 */
export class StaffRequirement {
  constructor(
    private readonly repo: SecondFactorRepository,
    private readonly sessions: SessionService,
    private readonly factors: AccountFactors,
    private readonly notices: AccountNotices,
    private readonly clock: Clock,
  ) {}

  async required(): Promise<boolean> {
    return this.repo.staffRequired();
  }

  /**
   * Whether a login of this user without a second factor must set one up before anything else: the
   * requirement binds the staff, whoever works at the desk (desk.use).
   */
  async mustSetUp(user: { role: number }): Promise<boolean> {
    return can(user, 'desk.use') && (await this.repo.staffRequired());
  }

  /** Whether a login of this user starts a session that may only set a factor up: required, and none yet. */
  async setupNeeded(user: { id: number; role: number }): Promise<boolean> {
    return (await this.mustSetUp(user)) && (await this.factors.factorsOf(user.id)).length === 0;
  }

  /** Staff may not remove their last factor while the owner requires one. */
  async mayRemove(actor: Actor, factors: SecondFactor[]): Promise<void> {
    if (factors.length <= 1 && (await this.mustSetUp(actor)))
      throw badRequest(jaMember.security.errors.lastFactorRequired);
  }

  /**
   * The owner's switch (audited), only with a second factor of their own and fresh proof. On, every staff
   * session without a factor is held to the setup screens at once, on every instance (product.md §11.7).
   */
  async set(actor: Actor, required: boolean): Promise<{ staff_required: boolean }> {
    if (!can(actor, 'staff.manage')) throw new AppError('forbidden', ja.errors.forbidden);
    if ((await this.factors.factorsOf(actor.uid)).length === 0)
      throw new AppError('forbidden', jaMember.reauth.errors.ownerFactorFirst);
    await this.sessions.requireFresh(actor);
    const before = await this.repo.staffRequired();
    if (before === required) return { staff_required: required };
    await this.repo.setStaffRequired(required, new Date(this.clock()), {
      actorId: actor.uid,
      actorName: actor.name,
      action: 'security',
      targetId: actor.uid,
      targetRole: actor.role,
      changes: { staff_second_factor: [before, required] },
    });
    await this.sessions.staffRequirementChanged(required);
    // Audited above with the switch itself.
    await this.notices.changed(actor, 'staff_requirement', null, null);
    return { staff_required: required };
  }
}
