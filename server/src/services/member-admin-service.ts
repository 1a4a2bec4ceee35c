import {
  AUDIT_PAGE_SIZE,
  NEW_USER_ROLE,
  SEARCH_USERS_MAX,
  kindOfRole,
  type AuditAction,
  type AuditSnapshot,
  type MemberKind,
  jaMember,
  can,
} from '@enishi/contract';
import type { UserRecord } from '../db/schema.js';
import type { AuditRecord, NewAuditRecord } from '../db/schema-admin.js';
import { badRequest, forbidden, notFound } from '../errors.js';
import type { Clock } from '../lib/clock.js';
import { hashPassword } from '../lib/passwords.js';
import type { Delivery } from '../bus/delivery.js';
import type { AuditFilter, AuditRepository } from '../repositories/audit-repository.js';
import type { MemberAdminRepository } from '../repositories/member-admin-repository.js';
import type { UserRepository } from '../repositories/user-repository.js';
import { insertAudit } from '../repositories/audit-repository.js';
import type { ProfileImageService } from './profile-image-service.js';
import type { Actor, SessionService } from './session-service.js';
import type { AccountNotices } from './account-notices.js';
import type { UserService } from './user-service.js';
import type { DeskTalkService } from './desk-talk-service.js';

/** A member form as the contract schema gives it (product.md §5 already checked). */
export interface MemberInput {
  loginId: string;
  name: string;
  /** The reading in hiragana, null for none (product.md §5.7); absent (undefined) keeps the stored one. */
  nameKana?: string | null | undefined;
  /** Absent on edit: keep the current password. */
  password: string | undefined;
  rank: number;
  /** Only which kind of record is meant (men 101, women 201, staff 1 to 6); the server picks the role. */
  role: number;
  introducer: string;
}

/** Changing one's own password needs fresh proof and tells the person's other devices (product.md §11.8). */
export interface OwnPasswordChange {
  sessions: Pick<SessionService, 'requireFresh'>;
  notices: Pick<AccountNotices, 'changed'>;
}

/** Where a member's profile photo files are (read before a deletion, removed after it commits). */
export interface MemberPhotoFiles {
  of(uid: number): Promise<string[]>;
  remove(paths: string[]): Promise<void>;
}

const DAY_MS = 86_400_000;
/** Midnight of a day (YYYY-MM-DD) in Japan. */
const japanDayStart = (day: string) => new Date(`${day}T00:00:00+09:00`);

/** The audit log's view of a record: never the password hash. */
export function auditSnapshot(user: UserRecord): AuditSnapshot {
  return {
    id: user.loginId,
    name: user.name,
    name_kana: user.nameKana,
    role: user.role,
    rank: user.rank,
    introducer: user.introducer,
    image: user.image !== null,
  };
}

function kindOf(role: number): MemberKind {
  const kind = kindOfRole(role);
  if (!kind) throw badRequest(jaMember.members.errors.roleInvalid);
  return kind;
}

/**
 * Adding, editing, finding and deleting men, women and staff (product.md §2 admin screens), and profile pictures.
 * Permissions come from the session only (product.md §6, the contract's permissions.ts): members may do none of it, staff manage
 * men and women, and only the owner manages staff. Every change is audited in its own transaction.
 */
export class MemberAdminService {
  constructor(
    private readonly records: MemberAdminRepository,
    private readonly users: UserRepository,
    private readonly userService: UserService,
    private readonly audits: AuditRepository,
    private readonly images: ProfileImageService,
    private readonly delivery: Delivery,
    private readonly clock: Clock,
    /** A member's profile photo files, removed with them. */
    private readonly photoFiles: MemberPhotoFiles = { of: async () => [], remove: async () => {} },
    private readonly ownPassword: OwnPasswordChange | null = null,
    /** A new member's 担当 in turn, when the admin turned it on (product.md §2.6). */
    private readonly deskTalks: Pick<DeskTalkService, 'newMember'> | null = null,
  ) {}

  private entry(actor: Actor, action: AuditAction, passwordReset = false) {
    return (before: UserRecord | null, after: UserRecord | null): NewAuditRecord => ({
      actorId: actor.uid,
      actorName: actor.name,
      action,
      targetId: (after ?? before)!.id,
      targetRole: (after ?? before)!.role,
      targetName: (after ?? before)!.name,
      before: before && auditSnapshot(before),
      after: after && auditSnapshot(after),
      passwordReset,
      createdAt: new Date(this.clock()),
    });
  }

  /** Members never reach staff administration; this runs before anything is looked up. */
  private requireStaff(actor: Actor): void {
    if (!can(actor, 'member.manage')) throw forbidden();
  }

  /** A record the caller may manage; a missing one is 404, one of a kind they may not manage 403. */
  private async managed(actor: Actor, uid: number): Promise<UserRecord> {
    this.requireStaff(actor);
    const user = await this.users.findById(uid);
    if (!user) throw notFound();
    if (!can(actor, 'member.manage', { role: user.role })) throw forbidden();
    return user;
  }

  /** Registers a man (101), a woman (201) or a staff member (always role 3, rank 0: product.md §9). */
  async add(actor: Actor, input: MemberInput & { password: string }): Promise<UserRecord> {
    this.requireStaff(actor);
    const kind = kindOf(input.role);
    if (!can(actor, 'member.manage', { role: NEW_USER_ROLE[kind] })) throw forbidden();
    const created = await this.userService.create(
      {
        loginId: input.loginId,
        password: input.password,
        name: input.name,
        nameKana: input.nameKana ?? null,
        role: NEW_USER_ROLE[kind],
        rank: kind === 'men' ? input.rank : 0,
        introducer: kind === 'staff' ? '' : input.introducer,
      },
      (tx, user) => insertAudit(tx, this.entry(actor, 'add')(null, user)),
    );
    if (!created) throw badRequest(jaMember.members.errors.idTaken);
    if (can(created, 'talk.desk')) await this.deskTalks?.newMember(actor, created.id);
    return created;
  }

  /**
   * Edits a record of the kind the form is for. The role never changes here (a man stays a man and staff
   * keep their role), so no form can raise anyone's rights.
   */
  async update(actor: Actor, uid: number, input: MemberInput): Promise<UserRecord> {
    const current = await this.managed(actor, uid);
    const kind = kindOf(current.role);
    if (kindOf(input.role) !== kind) throw badRequest(jaMember.members.errors.kindMismatch);
    const ownNewPassword = uid === actor.uid && !!input.password;
    if (ownNewPassword) await this.ownPassword?.sessions.requireFresh(actor);
    const passwordHash = input.password ? await hashPassword(input.password) : undefined;
    const result = await this.records.update(
      uid,
      {
        loginId: input.loginId,
        name: input.name,
        ...(input.nameKana !== undefined ? { nameKana: input.nameKana } : {}),
        rank: kind === 'men' ? input.rank : current.rank,
        introducer: kind === 'staff' ? current.introducer : input.introducer,
        ...(passwordHash ? { passwordHash } : {}),
        updatedAt: new Date(this.clock()),
      },
      this.entry(actor, 'update', passwordHash !== undefined),
      actor.sessionId,
    );
    if (result.outcome === 'missing') throw notFound();
    if (result.outcome === 'taken') throw badRequest(jaMember.members.errors.idTaken);
    // A new password ended the user's other sessions (the one changing their own stays): their open sockets
    // close too.
    if (passwordHash) {
      await this.delivery.toUser(uid, 'session.ended', { sessionId: null, keepSessionId: actor.sessionId });
    }
    if (!passwordHash || uid === actor.uid) await this.delivery.toUser(uid, 'user.changed', {});
    // Audited above with the record's own row (password_reset); the person's other devices are told.
    if (ownNewPassword) await this.ownPassword?.notices.changed(actor, 'password_changed', null, null);
    return result.after;
  }

  /**
   * Men, women or staff whose name, login ID or reading (in either kana script) contains the keyword
   * (everyone for none), in あいうえお order of their reading (product.md §11.5).
   */
  async search(
    actor: Actor,
    query: { keyword: string; rank: number; role: number },
  ): Promise<{ rows: UserRecord[]; count: number }> {
    this.requireStaff(actor);
    const kind = kindOf(query.role);
    if (!can(actor, 'member.manage', { role: NEW_USER_ROLE[kind] })) throw forbidden();
    return this.records.search({ kind, keyword: query.keyword, rank: query.rank, limit: SEARCH_USERS_MAX });
  }

  /**
   * Deletes a record. Their sessions go with it (the next call is a 401) and their open chat sockets close;
   * their picture is removed once the deletion has committed.
   */
  async delete(actor: Actor, uid: number): Promise<UserRecord> {
    await this.managed(actor, uid);
    if (uid === actor.uid) throw badRequest(jaMember.members.errors.selfDelete);
    const photos = await this.photoFiles.of(uid);
    const deleted = await this.records.delete(uid, this.entry(actor, 'delete'));
    if (!deleted) throw notFound();
    await this.delivery.toUser(uid, 'session.ended', { sessionId: null });
    await this.images.remove(deleted.image);
    await this.photoFiles.remove(photos);
    return deleted;
  }

  /**
   * Sets a profile picture (product.md §5, §6): for oneself with roles 1 to 3 and 201, and for the records one
   * manages (staff: any member; the owner: staff too).
   */
  async uploadImage(actor: Actor, uid: number, dataUrl: string): Promise<UserRecord> {
    if (!can(actor, 'user.image.upload')) throw forbidden();
    const target = uid === actor.uid ? null : await this.managed(actor, uid);
    if (!target && !can(actor, 'user.image.upload', { uid })) throw forbidden();

    const stored = await this.images.store(dataUrl);
    let result;
    try {
      result = await this.records.setImage(uid, stored, new Date(this.clock()), this.entry(actor, 'image'));
    } catch (error) {
      await this.images.remove(stored);
      throw error;
    }
    if (!result) {
      await this.images.remove(stored);
      throw notFound();
    }
    await this.images.remove(result.before.image);
    await this.delivery.toUser(uid, 'user.changed', {});
    return result.after;
  }

  /**
   * Ends every session of a record one manages (a lost phone, product.md §11.6): their calls get 401 and
   * their sockets close on every instance. Audited. One's own are ended from mypage instead.
   */
  async endSessions(actor: Actor, uid: number): Promise<number> {
    await this.managed(actor, uid);
    if (uid === actor.uid) throw badRequest(jaMember.sessions.errors.self);
    const count = await this.records.endSessions(uid, this.entry(actor, 'sessions'));
    if (count === null) throw notFound();
    await this.delivery.toUser(uid, 'session.ended', { sessionId: null });
    return count;
  }

  /** May the actor see and end this user's sessions? The same as managing their record (404 or 403). */
  async checkSessionsOf(actor: Actor, uid: number): Promise<void> {
    await this.managed(actor, uid);
  }

  /**
   * The audit log, newest first (the owner only), narrowed by person, action and days (Japan time, both
   * days included; product.md §2.8).
   */
  async auditLog(
    actor: Actor,
    page: number,
    query: { person?: string; action?: AuditAction; from?: string; to?: string } = {},
  ): Promise<{ rows: AuditRecord[]; isEnd: boolean }> {
    if (!can(actor, 'audit.read')) throw forbidden();
    const filter: AuditFilter = {
      ...(query.person ? { person: query.person } : {}),
      ...(query.action ? { action: query.action } : {}),
      ...(query.from ? { since: japanDayStart(query.from) } : {}),
      ...(query.to ? { until: new Date(japanDayStart(query.to).getTime() + DAY_MS) } : {}),
    };
    const rows = await this.audits.page(page * AUDIT_PAGE_SIZE, AUDIT_PAGE_SIZE + 1, filter);
    return { rows: rows.slice(0, AUDIT_PAGE_SIZE), isEnd: rows.length <= AUDIT_PAGE_SIZE };
  }
}
