import {
  LOOKUPS,
  MEMBER_EDITABLE_CANDIDATES,
  PROFILE_FIELDS,
  PROFILE_FIELD_NAMES,
  PROFILE_PHOTOS_MAX,
  scope,
  type AuditAction,
  type AuditChanges,
  type ClubLookupName,
  type LookupItem,
  type Profile,
  type ProfileField,
  type ProfileHistoryRow,
  type ProfilePhoto,
  jaMember,
  can,
} from '@enishi/contract';
import type { UserRecord } from '../db/schema.js';
import type { NewAuditRecord } from '../db/schema-admin.js';
import { badRequest, forbidden, notFound } from '../errors.js';
import type { Clock } from '../lib/clock.js';
import type { ProfileRepository } from '../repositories/profile-repository.js';
import type { UserRepository } from '../repositories/user-repository.js';
import type { ProfilePhotoService } from './profile-photo-service.js';
import type { Actor } from './session-service.js';

/** The `club_settings` key of the fields members may change on their own profile (product.md §19.10). */
const EDITABLE_KEY = 'member_editable_fields';

export interface ProfileView {
  user: UserRecord;
  profile: Profile;
  photos: ProfilePhoto[];
  history: ProfileHistoryRow[];
}

const CLUB_FIELDS = { company: 'companies', media: 'media', charge_staff: 'chargeStaff' } as const;

/** Fields a member reading their own profile does not see: the staff's sales notes. */
const SALES_FIELDS = PROFILE_FIELD_NAMES.filter((field) => PROFILE_FIELDS[field].group === 'sales');

/**
 * Member profiles, photos and the club's code lists (product.md §19.1, §19.5). Staff (roles 1 to 6) read and
 * change any man's or woman's profile; a member reads their own (without the sales notes); the owner and
 * admin edit the club's lists. Every change is audited with the change itself.
 */
export class ProfileService {
  constructor(
    private readonly profiles: ProfileRepository,
    private readonly users: UserRepository,
    private readonly photos: ProfilePhotoService,
    private readonly clock: Clock,
  ) {}

  /** Every fixed table and the club's own lists. Any signed-in user may read them. */
  async lookups(): Promise<Record<string, LookupItem[]>> {
    return { ...LOOKUPS, ...(await this.profiles.clubLists()) };
  }

  async replaceClubList(actor: Actor, list: ClubLookupName, items: LookupItem[]): Promise<LookupItem[]> {
    if (!can(actor, 'lookups.manage')) throw forbidden();
    if (list === 'media') {
      const parents = [...new Set(items.flatMap((item) => (item.parent ? [item.parent] : [])))];
      if (!(await this.profiles.clubCodesExist('companies', parents))) {
        throw badRequest(jaMember.profile.lookups.badParent);
      }
    }
    const cleaned = items.map((item) =>
      list === 'media' && item.parent ? item : { code: item.code, label: item.label },
    );
    await this.profiles.replaceClubList(list, cleaned);
    return (await this.profiles.clubLists())[list];
  }

  /** A member whose profile the actor may read: staff any member, a member only themselves (else 404). */
  private async readable(actor: Actor, uid: number): Promise<UserRecord> {
    if (!can(actor, 'member.profile.read', { uid })) throw notFound();
    const user = await this.users.findById(uid);
    if (!user || !can(actor, 'member.profile.read', { uid, role: user.role })) throw notFound();
    return user;
  }

  /** A member whose profile the actor may change: staff only (members 403 before anything is looked up). */
  private async editable(actor: Actor, uid: number): Promise<UserRecord> {
    if (!can(actor, 'member.manage')) throw forbidden();
    return this.readable(actor, uid);
  }

  /** The fields members may change on their own profile, as the owner set them (none until then). */
  async editableFields(): Promise<ProfileField[]> {
    const stored = await this.profiles.setting(EDITABLE_KEY);
    const fields = Array.isArray(stored) ? (stored as string[]) : [];
    return MEMBER_EDITABLE_CANDIDATES.filter((field) => fields.includes(field));
  }

  async setEditableFields(actor: Actor, fields: string[]): Promise<ProfileField[]> {
    if (!can(actor, 'lookups.manage')) throw forbidden();
    const chosen = MEMBER_EDITABLE_CANDIDATES.filter((field) => fields.includes(field));
    await this.profiles.saveSetting(EDITABLE_KEY, chosen, actor.uid);
    return chosen;
  }

  /**
   * A member changing their own profile: only the fields the owner made editable (anything else: 403 naming
   * the field); the change is audited like a staff change, with the member as the actor.
   */
  private async ownEditable(actor: Actor, uid: number, patch: Partial<Profile>): Promise<UserRecord> {
    if (!can(actor, 'member.profile.update', { uid })) throw forbidden();
    const allowed = await this.editableFields();
    const refused = (Object.keys(patch) as ProfileField[]).find((field) => !allowed.includes(field));
    if (refused) throw forbidden(jaMember.profile.errors.notEditable(jaMember.profile.fields[refused]));
    return this.readable(actor, uid);
  }

  async get(actor: Actor, uid: number): Promise<ProfileView> {
    const user = await this.readable(actor, uid);
    return this.view(actor, user);
  }

  async update(actor: Actor, uid: number, patch: Partial<Profile>): Promise<ProfileView> {
    const user = can(actor, 'member.manage')
      ? await this.editable(actor, uid)
      : await this.ownEditable(actor, uid, patch);
    for (const [field, list] of Object.entries(CLUB_FIELDS) as [keyof typeof CLUB_FIELDS, ClubLookupName][]) {
      const value = patch[field];
      if (typeof value === 'number' && !(await this.profiles.clubCodesExist(list, [value]))) {
        throw badRequest(jaMember.profile.errors.badCode(jaMember.profile.fields[field]));
      }
    }
    const now = new Date(this.clock());
    await this.profiles.update({
      userId: uid,
      patch,
      actor: { uid: actor.uid, name: actor.name },
      now,
      audit: this.audit(actor, user, 'profile', now),
    });
    return this.view(actor, user);
  }

  async addPhoto(actor: Actor, uid: number, dataUrl: string): Promise<ProfileView> {
    const user = await this.editable(actor, uid);
    if ((await this.profiles.photos(uid)).length >= PROFILE_PHOTOS_MAX) {
      throw badRequest(jaMember.profile.photos.tooMany(PROFILE_PHOTOS_MAX));
    }
    const image = await this.photos.store(dataUrl);
    const now = new Date(this.clock());
    const audit = this.audit(actor, user, 'photo', now, { photo: [null, 'added'] });
    let added = false;
    try {
      added = await this.profiles.addPhoto(uid, image, PROFILE_PHOTOS_MAX, audit);
    } finally {
      if (!added) await this.photos.remove([image.path]);
    }
    if (!added) throw badRequest(jaMember.profile.photos.tooMany(PROFILE_PHOTOS_MAX));
    return this.view(actor, user);
  }

  async deletePhoto(actor: Actor, uid: number, id: string): Promise<ProfileView> {
    const user = await this.editable(actor, uid);
    const now = new Date(this.clock());
    const audit = this.audit(actor, user, 'photo', now, { photo: [id, null] });
    const path = await this.profiles.deletePhoto(uid, id, audit);
    if (!path) throw notFound();
    await this.photos.remove([path]);
    return this.view(actor, user);
  }

  async orderPhotos(actor: Actor, uid: number, ids: string[]): Promise<ProfileView> {
    const user = await this.editable(actor, uid);
    const now = new Date(this.clock());
    const audit = this.audit(actor, user, 'photo', now, { order: [null, ids] });
    if (!(await this.profiles.orderPhotos(uid, ids, audit))) throw badRequest();
    return this.view(actor, user);
  }

  private audit(
    actor: Actor,
    user: UserRecord,
    action: AuditAction,
    now: Date,
    changes: AuditChanges | null = null,
  ): NewAuditRecord {
    return {
      actorId: actor.uid,
      actorName: actor.name,
      action,
      targetId: user.id,
      targetRole: user.role,
      targetName: user.name,
      before: null,
      after: null,
      passwordReset: false,
      changes,
      createdAt: now,
    };
  }

  private async view(actor: Actor, user: UserRecord): Promise<ProfileView> {
    const manages = can(actor, 'member.manage', { uid: user.id, role: user.role });
    const [profile, photoRows, historyRows] = await Promise.all([
      this.profiles.find(user.id),
      this.profiles.photos(user.id),
      this.profiles.history(user.id, scope(actor, 'member.manage')),
    ]);
    if (!manages) {
      const hidden = profile as Record<string, unknown>;
      for (const field of SALES_FIELDS) hidden[field] = PROFILE_FIELDS[field].kind === 'text' ? '' : null;
    }
    const urls = this.photos.sign(photoRows.map((photo) => photo.id));
    return {
      user,
      profile,
      photos: photoRows.map((photo, index) => ({ id: photo.id, url: urls[index]! })),
      history: historyRows.map((row) => ({
        id: row.id,
        field: row.field,
        from: row.fromCode,
        to: row.toCode,
        actor: row.actorName,
        date: row.createdAt.toISOString(),
      })),
    };
  }
}
