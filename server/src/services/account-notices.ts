import {
  jaMember,
  type AuditAction,
  type AuditChanges,
  type NoticeKind,
  type NoticeRow,
} from '@enishi/contract';
import type { Clock } from '../lib/clock.js';
import type { NoticeRepository } from '../repositories/notice-repository.js';
import type { Actor } from './session-service.js';

/** Who sends the push of a change to the person's other devices (PushNotifier.account). */
export interface AccountPush {
  account(
    uid: number,
    exceptSessionId: string,
    payload: { title: string; body: string; url: string; tag: string },
  ): Promise<void>;
}

/**
 * A change to how a person logs in, or a lock of their second step (product.md §11.8): an audit row and a
 * notice in one transaction, and a push to their other devices. The web shows open notices at the top of
 * every screen until dismissed, so a change made from another device is seen at the next open.
 */
export class AccountNotices {
  constructor(
    private readonly repo: NoticeRepository,
    private readonly push: AccountPush | null,
    private readonly clock: Clock,
    private readonly onError: (error: unknown) => void = () => {},
  ) {}

  /**
   * Records a change the person made on the session of `actor`; `audit` null when the change is audited
   * already where it is made (a new password, by the member form's own audit row).
   */
  async changed(
    actor: Actor,
    kind: NoticeKind,
    changes: AuditChanges | null,
    audit: { action: AuditAction } | null = { action: 'security' },
  ): Promise<void> {
    const now = new Date(this.clock());
    if (audit)
      await this.repo.addWithAudit(actor.uid, kind, now, {
        actorId: actor.uid,
        actorName: actor.name,
        action: audit.action,
        targetId: actor.uid,
        targetRole: actor.role,
        targetName: actor.name,
        changes,
        createdAt: now,
      });
    else await this.repo.add(actor.uid, kind, now);
    // A push that fails is logged; the change is made and the notice waits in the app.
    await this.push
      ?.account(actor.uid, actor.sessionId, {
        title: jaMember.reauth.pushTitle,
        body: jaMember.reauth.notices[kind],
        url: '/security',
        tag: 'account-security',
      })
      .catch(this.onError);
  }

  /** The caller's open notices, newest first (product.md §11.8 /api/notices). */
  async list(actor: Actor): Promise<{ rows: NoticeRow[] }> {
    const rows = await this.repo.open(actor.uid);
    return {
      rows: rows.map((row) => ({ id: row.id, kind: row.kind, created_at: row.createdAt.toISOString() })),
    };
  }

  /** Dismisses one of the caller's notices (someone else's id changes nothing) and answers the list. */
  async dismiss(actor: Actor, id: number): Promise<{ rows: NoticeRow[] }> {
    await this.repo.dismiss(actor.uid, id, new Date(this.clock()));
    return this.list(actor);
  }
}
