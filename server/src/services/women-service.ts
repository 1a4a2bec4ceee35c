import {
  WOMAN_PUBLIC_FIELDS,
  givenName,
  ageOn,
  japanTime,
  type EntryDetailReply,
  type EntryQuery,
  type EntryRow,
  type SiteKind,
  can,
} from '@enishi/contract';
import { forbidden, notFound } from '../errors.js';
import type { Clock } from '../lib/clock.js';
import type { EntryRecord, EntryRepository } from '../repositories/entry-repository.js';
import type { FavoriteRepository } from '../repositories/favorite-repository.js';
import type { UserRepository } from '../repositories/user-repository.js';
import type { Actor } from './session-service.js';

export interface EntryListInput {
  type?: number[];
  page: number;
  perPage: number;
  query?: EntryQuery;
}

/** Signs the URLs of member photos (by photo id) and of stored profile pictures. */
export interface WomenImages {
  photos(ids: string[]): string[];
  picture(stored: string | null): string | null;
}

/** The women's list: men (101) and staff (1-6); women get 403 (product.md §19.2). */
const mayBrowse = (actor: Actor): boolean => can(actor, 'women.browse');

/**
 * The women's list for men and staff, and a man's favourites (product.md §19.2-§19.4). Which women a caller
 * sees follows from the site kind of the host they came through (product.md §9.6). Favourites are the man's
 * own: nobody else reads or changes them, staff included.
 */
export class WomenService {
  constructor(
    private readonly entries: EntryRepository,
    private readonly favorites: FavoriteRepository,
    private readonly users: UserRepository,
    private readonly images: WomenImages,
    private readonly clock: Clock,
  ) {}

  async list(actor: Actor, kind: SiteKind, input: EntryListInput) {
    if (!mayBrowse(actor)) throw forbidden();
    const query = input.query ?? {};
    const today = japanTime(new Date(this.clock())).dateKey;
    const { rows, total } = await this.entries.search(
      {
        kind,
        entryTypes: input.type,
        query,
        readerId: actor.uid,
        bornOnOrBefore: query.age_min === undefined ? undefined : yearsBefore(today, query.age_min),
        bornAfter: query.age_max === undefined ? undefined : yearsBefore(today, query.age_max + 1),
      },
      input.page * input.perPage,
      input.perPage + 1,
    );
    return {
      rows: rows.slice(0, input.perPage).map((row) => this.card(row, today)),
      isEnd: rows.length <= input.perPage,
      total,
    };
  }

  async detail(actor: Actor, kind: SiteKind, womanId: number): Promise<EntryDetailReply> {
    if (!mayBrowse(actor)) throw forbidden();
    const found = await this.entries.find(womanId, kind, actor.uid);
    if (!found) throw notFound();
    const today = japanTime(new Date(this.clock())).dateKey;
    const photoIds = await this.entries.photos(womanId);
    const picture = this.images.picture(found.image);
    const profile = Object.fromEntries(
      WOMAN_PUBLIC_FIELDS.map((field) => [field, found.profile ? found.profile[camel(field)] : null]),
    ) as EntryDetailReply['profile'];
    return {
      ...this.card(found, today),
      photos: photoIds.length > 0 ? this.images.photos(photoIds) : picture ? [picture] : [],
      profile,
    };
  }

  /** Whether this caller may see this woman through this kind of site (and so ask for a setting). */
  async mayAskFor(actor: Actor, kind: SiteKind, womanId: number): Promise<boolean> {
    return mayBrowse(actor) && (await this.entries.find(womanId, kind, actor.uid)) !== null;
  }

  async favoriteIds(actor: Actor): Promise<number[]> {
    if (!can(actor, 'women.favorite')) throw forbidden();
    return this.favorites.list(actor.uid);
  }

  async setFavorite(actor: Actor, womanId: number, on: boolean): Promise<void> {
    if (!can(actor, 'women.favorite')) throw forbidden();
    if (!on) return this.favorites.remove(actor.uid, womanId);
    const woman = await this.users.findById(womanId);
    if (!woman || !can(actor, 'women.browse', { uid: woman.id, role: woman.role })) throw notFound();
    await this.favorites.add(actor.uid, womanId, new Date(this.clock()));
  }

  /** A card: never the login ID, password, e-mail or phone; the nickname, else the given name. */
  private card(row: EntryRecord, today: string): EntryRow {
    const profile = row.profile;
    const photo = row.photo ? this.images.photos([row.photo])[0]! : this.images.picture(row.image);
    return {
      id: row.id,
      name: profile?.nickname || givenName(row.name),
      age: profile?.birthDate ? ageOn(profile.birthDate, today) : null,
      area: profile?.area ?? null,
      prefecture: profile?.prefecture ?? null,
      height: profile?.height ?? null,
      bust: profile?.bust ?? null,
      cup: profile?.cup ?? null,
      women_rank: profile?.womenRank ?? 0,
      photo,
      favorite: row.favorite,
    };
  }
}

/** `YYYY-MM-DD` `years` before `today` (29 February becomes the 28th in other years). */
function yearsBefore(today: string, years: number): string {
  const monthDay = today.slice(5) === '02-29' ? '02-28' : today.slice(5);
  return `${String(Number(today.slice(0, 4)) - years).padStart(4, '0')}-${monthDay}`;
}

/** `blood_type` -> `bloodType`: the profile column's property name. */
function camel<F extends string>(field: F): keyof NonNullable<EntryRecord['profile']> {
  return field.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase()) as keyof NonNullable<
    EntryRecord['profile']
  >;
}
