import { and, asc, desc, eq, getTableColumns, inArray, sql } from 'drizzle-orm';
import {
  PROFILE_FIELD_NAMES,
  PROFILE_HISTORY_FIELDS,
  emptyProfile,
  type AuditChanges,
  type ClubLookupName,
  type LookupItem,
  type Profile,
  type ProfileField,
  type Scope,
  holdsNoRow,
} from '@enishi/contract';
import type { Database } from '../db/client.js';
import { scopeSql } from '../rules/scope-sql.js';
import {
  clubLookupItems,
  clubSettings,
  memberPhotos,
  memberProfileHistory,
  memberProfiles,
  type MemberPhotoRecord,
  type MemberProfileHistoryRecord,
  type MemberProfileRecord,
} from '../db/schema-profile.js';
import type { NewAuditRecord } from '../db/schema-admin.js';
import { users } from '../db/schema.js';
import type { NewImage } from './message-repository.js';
import { insertAudit } from './audit-repository.js';

/** The drizzle key of each profile column by its SQL name, which is the field's wire name. */
const KEY_OF_FIELD = Object.fromEntries(
  Object.entries(getTableColumns(memberProfiles)).map(([key, column]) => [column.name, key]),
) as Record<ProfileField, keyof MemberProfileRecord>;

/**
 * A stored row as the contract's Profile (every field present). The reading (name_kana) is the person's,
 * `users.name_kana` (product.md §5.7), since migration 0020; the profile's own column is no longer read.
 */
export function profileOf(row: MemberProfileRecord | null | undefined, reading: string | null): Profile {
  const profile = emptyProfile() as Record<ProfileField, unknown>;
  if (row) for (const field of PROFILE_FIELD_NAMES) profile[field] = row[KEY_OF_FIELD[field]];
  profile.name_kana = reading ?? '';
  return profile as Profile;
}

const same = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b);

export interface ProfileChange {
  userId: number;
  patch: Partial<Profile>;
  actor: { uid: number; name: string };
  now: Date;
  /** The audit row without its changes, which are known only inside the transaction. */
  audit: Omit<NewAuditRecord, 'changes'>;
}

export class ProfileRepository {
  constructor(private readonly db: Database) {}

  async find(userId: number): Promise<Profile> {
    const [row] = await this.db
      .select({ profile: memberProfiles, reading: users.nameKana })
      .from(users)
      .leftJoin(memberProfiles, eq(memberProfiles.userId, users.id))
      .where(eq(users.id, userId));
    return profileOf(row?.profile, row?.reading ?? null);
  }

  /**
   * Applies the fields that really change, in one transaction with their history rows (women's rank and
   * entry type) and one audit row listing each change; nothing changed writes nothing.
   */
  async update(change: ProfileChange): Promise<Profile> {
    return this.db.transaction(async (tx) => {
      // The person first, as a deletion locks them (and then their profile, by cascade).
      const [person] = await tx
        .select({ reading: users.nameKana })
        .from(users)
        .where(eq(users.id, change.userId))
        .for('update');
      const rows = await tx
        .select()
        .from(memberProfiles)
        .where(eq(memberProfiles.userId, change.userId))
        .for('update');
      const before = profileOf(rows[0], person?.reading ?? null);
      const changes: AuditChanges = {};
      const values: Record<string, unknown> = {};
      for (const [field, value] of Object.entries(change.patch) as [ProfileField, unknown][]) {
        if (value === undefined || same(before[field], value)) continue;
        changes[field] = [before[field], value];
        if (field !== 'name_kana') values[KEY_OF_FIELD[field]] = value;
      }
      if (Object.keys(changes).length === 0) return before;
      if (changes.name_kana) {
        const reading = (change.patch.name_kana as string) || null;
        await tx.update(users).set({ nameKana: reading }).where(eq(users.id, change.userId));
      }
      const set = { ...values, updatedBy: change.actor.uid, updatedAt: change.now };
      await tx
        .insert(memberProfiles)
        .values({ userId: change.userId, ...set })
        .onConflictDoUpdate({ target: memberProfiles.userId, set });
      const history = PROFILE_HISTORY_FIELDS.filter((field) => changes[field]).map((field) => ({
        userId: change.userId,
        field,
        fromCode: (before[field] as number | null) ?? null,
        toCode: change.patch[field] ?? null,
        actorId: change.actor.uid,
        actorName: change.actor.name,
        createdAt: change.now,
      }));
      if (history.length > 0) await tx.insert(memberProfileHistory).values(history);
      await insertAudit(tx, { ...change.audit, changes });
      return { ...before, ...change.patch } as Profile;
    });
  }

  /** Newest first. */
  /** A member's history, as far as the reader's scope (member.manage) holds that member. */
  async history(userId: number, readable: Scope, limit = 100): Promise<MemberProfileHistoryRecord[]> {
    if (holdsNoRow(readable)) return [];
    const role = sql`(select ${users.role} from ${users} where ${users.id} = ${memberProfileHistory.userId})`;
    return this.db
      .select()
      .from(memberProfileHistory)
      .where(and(eq(memberProfileHistory.userId, userId), scopeSql(readable, { role })))
      .orderBy(desc(memberProfileHistory.id))
      .limit(limit);
  }

  /** In their order. */
  async photos(userId: number): Promise<MemberPhotoRecord[]> {
    return this.db
      .select()
      .from(memberPhotos)
      .where(eq(memberPhotos.userId, userId))
      .orderBy(asc(memberPhotos.position), asc(memberPhotos.createdAt));
  }

  /** Adds a photo last, unless the member already has `max`; audited in the same transaction. */
  async addPhoto(userId: number, image: NewImage, max: number, audit: NewAuditRecord): Promise<boolean> {
    return this.db.transaction(async (tx) => {
      // One member's photos change one at a time: the count below stays true until the insert.
      await tx.execute(sql`select pg_advisory_xact_lock(hashtext('member_photos'), ${userId})`);
      const [row] = await tx
        .select({ count: sql<number>`count(*)::int`, last: sql<number>`coalesce(max(position), -1)::int` })
        .from(memberPhotos)
        .where(eq(memberPhotos.userId, userId));
      if ((row?.count ?? 0) >= max) return false;
      await tx.insert(memberPhotos).values({ ...image, userId, position: (row?.last ?? -1) + 1 });
      await insertAudit(tx, audit);
      return true;
    });
  }

  /** Removes one photo of the member; its file path, or null when it is not theirs. */
  async deletePhoto(userId: number, id: string, audit: NewAuditRecord): Promise<string | null> {
    return this.db.transaction(async (tx) => {
      const deleted = await tx
        .delete(memberPhotos)
        .where(and(eq(memberPhotos.userId, userId), eq(memberPhotos.id, id)))
        .returning({ path: memberPhotos.path });
      if (!deleted[0]) return null;
      await insertAudit(tx, audit);
      return deleted[0].path;
    });
  }

  /** Sets the order of a member's photos: `ids` must be exactly their photos. */
  async orderPhotos(userId: number, ids: string[], audit: NewAuditRecord): Promise<boolean> {
    return this.db.transaction(async (tx) => {
      const current = await tx
        .select({ id: memberPhotos.id })
        .from(memberPhotos)
        .where(eq(memberPhotos.userId, userId))
        .for('update');
      const known = new Set(current.map((row) => row.id));
      if (
        ids.length !== known.size ||
        new Set(ids).size !== ids.length ||
        !ids.every((id) => known.has(id))
      ) {
        return false;
      }
      for (const [position, id] of ids.entries()) {
        await tx.update(memberPhotos).set({ position }).where(eq(memberPhotos.id, id));
      }
      await insertAudit(tx, audit);
      return true;
    });
  }

  /** A photo's file, for serving; its row goes with its member, so a found one is live. */
  async findServablePhoto(id: string): Promise<{ path: string; mime: string; bytes: number } | null> {
    const rows = await this.db
      .select({ path: memberPhotos.path, mime: memberPhotos.mime, bytes: memberPhotos.bytes })
      .from(memberPhotos)
      .where(eq(memberPhotos.id, id))
      .limit(1);
    return rows[0] ?? null;
  }

  /** The club's own lists, each in its order. */
  /** A club setting the owner edits (`club_settings`), or undefined when never set. */
  async setting(key: string): Promise<unknown> {
    const rows = await this.db
      .select({ value: clubSettings.value })
      .from(clubSettings)
      .where(eq(clubSettings.key, key));
    return rows[0]?.value;
  }

  async saveSetting(key: string, value: unknown, by: number): Promise<void> {
    const updatedAt = new Date();
    await this.db
      .insert(clubSettings)
      .values({ key, value, updatedBy: by, updatedAt })
      .onConflictDoUpdate({ target: clubSettings.key, set: { value, updatedBy: by, updatedAt } });
  }

  async clubLists(): Promise<Record<ClubLookupName, LookupItem[]>> {
    const rows = await this.db
      .select()
      .from(clubLookupItems)
      .orderBy(asc(clubLookupItems.list), asc(clubLookupItems.position), asc(clubLookupItems.code));
    const lists: Record<ClubLookupName, LookupItem[]> = { companies: [], media: [], chargeStaff: [] };
    for (const row of rows) {
      lists[row.list]?.push(
        row.parent === null
          ? { code: row.code, label: row.label }
          : {
              code: row.code,
              label: row.label,
              parent: row.parent,
            },
      );
    }
    return lists;
  }

  /** Whether every code is in the club list. */
  async clubCodesExist(list: ClubLookupName, codes: number[]): Promise<boolean> {
    if (codes.length === 0) return true;
    const rows = await this.db
      .select({ code: clubLookupItems.code })
      .from(clubLookupItems)
      .where(and(eq(clubLookupItems.list, list), inArray(clubLookupItems.code, codes)));
    return rows.length === new Set(codes).size;
  }

  /** Replaces a whole club list, in the order given. */
  async replaceClubList(list: ClubLookupName, items: LookupItem[]): Promise<void> {
    await this.db.transaction(async (tx) => {
      await tx.delete(clubLookupItems).where(eq(clubLookupItems.list, list));
      if (items.length === 0) return;
      await tx.insert(clubLookupItems).values(
        items.map((item, position) => ({
          list,
          code: item.code,
          label: item.label,
          parent: item.parent ?? null,
          position,
        })),
      );
    });
  }
}
