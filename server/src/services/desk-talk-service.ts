import { can, jaMember, type DeskStatus, type DeskTalkState } from '@enishi/contract';
import { badRequest, forbidden, notFound } from '../errors.js';
import type { Clock } from '../lib/clock.js';
import type { Delivery } from '../bus/delivery.js';
import type { NewAuditRecord } from '../db/schema-admin.js';
import type {
  DeskTalkChange,
  DeskTalkRepository,
  DeskTalkRow,
} from '../repositories/desk-talk-repository.js';
import type { Actor } from './session-service.js';

const e = jaMember.deskTalk.errors;

export const deskState = (row: DeskTalkRow): DeskTalkState => ({
  conversation_id: row.conversationId,
  uid: row.memberId,
  status: row.status,
  assignee: row.assignee,
});

/** Who acted, as the audit log names them. */
type AuditActor = { uid: number; name: string };

/**
 * The audit row of a change (action `desk`, product.md §2.8): whose talk, and each part that changed —
 * `desk_status` by its code, `assignee` by the names (null: none).
 */
function auditOf(actor: AuditActor, now: Date) {
  return ({ before, after }: DeskTalkChange): NewAuditRecord | null => {
    const changes: Record<string, [unknown, unknown]> = {};
    if (before.status !== after.status) changes.desk_status = [before.status, after.status];
    if (before.assignee?.uid !== after.assignee?.uid)
      changes.assignee = [before.assignee?.name ?? null, after.assignee?.name ?? null];
    if (Object.keys(changes).length === 0) return null;
    return {
      actorId: actor.uid,
      actorName: actor.name,
      action: 'desk',
      targetId: after.memberId,
      targetRole: after.memberRole,
      targetName: after.memberName,
      changes,
      createdAt: now,
    };
  };
}

/**
 * A desk talk's status and 担当 (product.md §2.6): staff set them, a member's new message reopens a
 * 対応済み talk, and a new member may be given a 担当 in turn. Every change is one audit row and one `desk`
 * frame to every staff socket on every instance, after the commit; members never hear of either.
 */
export class DeskTalkService {
  constructor(
    private readonly talks: DeskTalkRepository,
    private readonly delivery: Delivery,
    private readonly clock: Clock,
  ) {}

  /** Tells every staff screen, and drops the staff's room lists (their filters read the new state). */
  private async tellStaff(change: DeskTalkChange): Promise<void> {
    await this.delivery.roomListsChanged({ uids: [], staff: true });
    await this.delivery.toAudience({ memberIds: [], staff: true }, 'desk.changed', {
      state: deskState(change.after),
    });
  }

  private async changed(change: DeskTalkChange | null): Promise<DeskTalkState> {
    if (!change) throw notFound(e.notDeskTalk);
    if (change.before !== change.after) await this.tellStaff(change);
    return deskState(change.after);
  }

  async setStatus(actor: Actor, conversationId: number, status: DeskStatus): Promise<DeskTalkState> {
    if (!can(actor, 'desk.status')) throw forbidden();
    const now = new Date(this.clock());
    return this.changed(await this.talks.change(conversationId, { status }, auditOf(actor, now)));
  }

  /** Take (oneself), hand over (another staff member) or release (null) the talk's 担当. */
  async assign(actor: Actor, conversationId: number, assigneeId: number | null): Promise<DeskTalkState> {
    if (!can(actor, 'desk.assign')) throw forbidden();
    const current = await this.talks.find(conversationId);
    if (!current) throw notFound(e.notDeskTalk);
    const from = current.assignee?.uid ?? null;
    if (!can(actor, 'desk.assign', { assignment: { from, to: assigneeId } })) throw forbidden();
    if (assigneeId !== null && !(await this.talks.isStaff(assigneeId))) throw badRequest(e.notStaff);
    const now = new Date(this.clock());
    const change = await this.talks.change(conversationId, { assigneeId }, auditOf(actor, now));
    return this.changed(change);
  }

  /** A member's own message in their desk talk: 対応済み becomes 未対応 (the member is who acted). */
  async memberWrote(conversationId: number, member: AuditActor): Promise<void> {
    const change = await this.talks.reopen(conversationId, auditOf(member, new Date(this.clock())));
    if (change) await this.tellStaff(change);
  }

  async counts(actor: Actor) {
    if (!can(actor, 'desk.status')) throw forbidden();
    return this.talks.counts(actor.uid);
  }

  async staff(actor: Actor) {
    if (!can(actor, 'desk.status')) throw forbidden();
    const [rows, roundRobin] = await Promise.all([this.talks.staff(), this.talks.roundRobin()]);
    return { rows, round_robin: roundRobin };
  }

  async setRoundRobin(actor: Actor, enabled: boolean): Promise<{ round_robin: boolean }> {
    if (!can(actor, 'desk.round_robin')) throw forbidden();
    await this.talks.setRoundRobin(enabled, actor.uid, new Date(this.clock()));
    return { round_robin: enabled };
  }

  /**
   * A new member's talk gets the staff member whose turn it is, when the admin turned that on (product.md
   * §2.6); `actor` is who registered the member.
   */
  async newMember(actor: AuditActor, memberId: number): Promise<void> {
    if (!(await this.talks.roundRobin())) return;
    const audit = auditOf(actor, new Date(this.clock()));
    const change = await this.talks.nextInTurn((tx, uid) =>
      this.talks.assignInTurn(tx, memberId, uid, audit),
    );
    if (change) await this.tellStaff(change);
  }
}
