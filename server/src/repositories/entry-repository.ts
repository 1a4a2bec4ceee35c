import {
  and,
  asc,
  count,
  desc,
  eq,
  gte,
  inArray,
  isNotNull,
  isNull,
  lte,
  gt,
  sql,
  type SQL,
} from 'drizzle-orm';
import { ENTRY_TYPE, ROLE, WOMEN_RANKS_V_OR_ABOVE, type EntryQuery, type SiteKind } from '@enishi/contract';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { Database } from '../db/client.js';
import { favorites, memberPhotos, memberProfiles, users, type MemberProfileRecord } from '../db/schema.js';

/** Entry types of women listed for sales (product.md §9.7): registered, listed and entered. */
const LISTED = [ENTRY_TYPE.REGIST, ENTRY_TYPE.UP, ENTRY_TYPE.ENTRY];

/** A woman as the list reads her: the user's name and stored picture, her profile (null if none yet). */
export interface EntryRecord {
  id: number;
  name: string;
  image: string | null;
  profile: MemberProfileRecord | null;
  photo: string | null;
  favorite: boolean;
}

export interface EntrySearch {
  kind: SiteKind;
  /** Entry types asked for; narrows what the kind shows. */
  entryTypes?: number[];
  query: EntryQuery;
  /** The reader (their favourites mark the rows; the favourites tab keeps only those). */
  readerId: number;
  /** Birth dates that make the ages asked for, worked out from today's Japan date. */
  bornAfter?: string;
  bornOnOrBefore?: string;
}

const entryType = sql<number>`coalesce(${memberProfiles.entryType}, 0)`;
const company = memberProfiles.company;

/**
 * Which women a site of each kind shows (product.md §9.6, decision 014): 1 black women; 2 the club's own and
 * other companies' women listed for sales; 3 individual women (no company); 4 as 2 at rank V or above (VIP, special VIP);
 * 5 ocean: the women other companies brought (a company set).
 */
export function siteKindCondition(kind: SiteKind): SQL {
  switch (kind) {
    case 1:
      return sql`${entryType} = ${ENTRY_TYPE.BLACK}`;
    case 2:
      return inArray(entryType, LISTED);
    case 3:
      return and(inArray(entryType, LISTED), isNull(company))!;
    case 4:
      return and(inArray(entryType, LISTED), inArray(memberProfiles.womenRank, [...WOMEN_RANKS_V_OR_ABOVE]))!;
    case 5:
      return and(inArray(entryType, LISTED), isNotNull(company))!;
  }
}

/** The column is one of the codes asked for; no codes, no condition. */
const anyOf = (column: SQL | AnyPgColumn, values: number[] | undefined): SQL | undefined =>
  values && values.length > 0 ? inArray(column as SQL, values) : undefined;

export class EntryRepository {
  constructor(private readonly db: Database) {}

  private conditions(search: EntrySearch): SQL {
    const q = search.query;
    const favorite = sql`exists (select 1 from ${favorites} where ${favorites.userId} = ${search.readerId} and ${favorites.womanId} = ${users.id})`;
    return and(
      eq(users.role, ROLE.female),
      siteKindCondition(search.kind),
      anyOf(entryType, search.entryTypes),
      search.bornAfter ? gt(memberProfiles.birthDate, search.bornAfter) : undefined,
      search.bornOnOrBefore ? lte(memberProfiles.birthDate, search.bornOnOrBefore) : undefined,
      q.height_min === undefined ? undefined : gte(memberProfiles.height, q.height_min),
      q.height_max === undefined ? undefined : lte(memberProfiles.height, q.height_max),
      q.bust_min === undefined ? undefined : gte(memberProfiles.bust, q.bust_min),
      q.bust_max === undefined ? undefined : lte(memberProfiles.bust, q.bust_max),
      q.rank_min === undefined ? undefined : gte(memberProfiles.womenRank, q.rank_min),
      q.rank_max === undefined ? undefined : lte(memberProfiles.womenRank, q.rank_max),
      anyOf(memberProfiles.company, q.club),
      anyOf(memberProfiles.sake, q.sake),
      anyOf(memberProfiles.golf, q.golf),
      anyOf(memberProfiles.tobacco, q.tobacco),
      anyOf(memberProfiles.jointParty, q.joint_party),
      anyOf(memberProfiles.bloodType, q.blood),
      anyOf(memberProfiles.type, q.type),
      anyOf(memberProfiles.area, q.area),
      q.languages && q.languages.length > 0
        ? sql`${memberProfiles.languages} && ${sql.param(q.languages)}::integer[]`
        : undefined,
      q.favorites ? favorite : undefined,
    )!;
  }

  /** What a row of the list holds: the woman, her profile, her first photo and the reader's star. */
  private fields(readerId: number) {
    return {
      id: users.id,
      name: users.name,
      image: users.image,
      profile: memberProfiles,
      // The first photo in staff's order.
      photo: sql<
        string | null
      >`(select ${memberPhotos.id} from ${memberPhotos} where ${memberPhotos.userId} = ${users.id} order by ${memberPhotos.position}, ${memberPhotos.createdAt} limit 1)`,
      favorite: sql<boolean>`exists (select 1 from ${favorites} where ${favorites.userId} = ${readerId} and ${favorites.womanId} = ${users.id})`,
    };
  }

  private select(readerId: number) {
    return this.db
      .select(this.fields(readerId))
      .from(users)
      .leftJoin(memberProfiles, eq(memberProfiles.userId, users.id));
  }

  /**
   * A page of the women a search finds, newest member first, and how many it finds in all. One statement
   * (product.md §19.2): the inner query finds the page's ids and counts every hit in the same scan (a window
   * count), and only the page's rows read their photo and star. A page past the end counts on its own.
   */
  async search(
    search: EntrySearch,
    offset: number,
    limit: number,
  ): Promise<{ rows: EntryRecord[]; total: number }> {
    const where = this.conditions(search);
    const page = this.db
      .select({ pageId: users.id, hits: sql<string>`count(*) over ()`.as('hits') })
      .from(users)
      .leftJoin(memberProfiles, eq(memberProfiles.userId, users.id))
      .where(where)
      .orderBy(desc(users.id))
      .offset(offset)
      .limit(limit)
      .as('page');
    const found = await this.db
      .select({ ...this.fields(search.readerId), hits: page.hits })
      .from(page)
      .innerJoin(users, eq(users.id, page.pageId))
      .leftJoin(memberProfiles, eq(memberProfiles.userId, users.id))
      .orderBy(desc(users.id));
    const rows = found.map(({ hits: _hits, ...row }) => row);
    if (found[0]) return { rows, total: Number(found[0].hits) };
    if (offset === 0) return { rows, total: 0 };
    const totals = await this.db
      .select({ n: count() })
      .from(users)
      .leftJoin(memberProfiles, eq(memberProfiles.userId, users.id))
      .where(where);
    return { rows, total: totals[0]?.n ?? 0 };
  }

  /** One woman, if the kind shows her. */
  async find(womanId: number, kind: SiteKind, readerId: number): Promise<EntryRecord | null> {
    const rows = await this.select(readerId)
      .where(and(eq(users.id, womanId), eq(users.role, ROLE.female), siteKindCondition(kind)))
      .limit(1);
    return rows[0] ?? null;
  }

  /** All of a woman's photo ids in staff's order. */
  async photos(womanId: number): Promise<string[]> {
    const rows = await this.db
      .select({ id: memberPhotos.id })
      .from(memberPhotos)
      .where(eq(memberPhotos.userId, womanId))
      .orderBy(asc(memberPhotos.position), asc(memberPhotos.createdAt));
    return rows.map((row) => row.id);
  }
}
