import { sql } from 'drizzle-orm';
import {
  bigserial,
  date,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  timestamp,
  varchar,
} from 'drizzle-orm/pg-core';
import type { ClubLookupName, ProfileHistoryField } from '@enishi/contract';
import { createdAt, ownedBy, storedImageColumns } from './columns.js';
import { users } from './schema.js';

/*
 * Member profiles, their photos, the rank/entry-type history and the club's own code lists (product.md §3,
 * §19). Column names are the snake_case field names of PROFILE_FIELDS in the contract. Re-exported by
 * schema.ts. Codes of the fixed tables are checked by the contract, not by foreign keys.
 */

const code = (name: string) => integer(name);
const codes = (name: string) =>
  integer(name)
    .array()
    .notNull()
    .default(sql`'{}'::integer[]`);
const note = (name: string, length: number) => varchar(name, { length }).notNull().default('');

/**
 * One row per member (a man or a woman). The fields the women's list filters on (product.md §3.14) are plain
 * indexed columns: birth date (age), height, bust, cup, area, prefecture, women's rank, company, sake, golf,
 * tobacco, joint party, blood type, languages, type and entry type.
 */
export const memberProfiles = pgTable(
  'member_profiles',
  {
    userId: integer('user_id')
      .primaryKey()
      .references(() => users.id, { onDelete: 'cascade' }),
    // Basics
    nameKana: note('name_kana', 50),
    nickname: note('nickname', 30),
    birthDate: date('birth_date', { mode: 'string' }),
    prefecture: code('prefecture'),
    area: code('area'),
    bloodType: code('blood_type'),
    marriage: code('marriage'),
    children: code('children'),
    education: code('education'),
    languages: codes('languages'),
    languageLevel: code('language_level'),
    living: code('living'),
    partner: code('partner'),
    contactMethod: code('contact_method'),
    idDocument: code('id_document'),
    // Appearance
    height: integer('height'),
    weight: integer('weight'),
    bust: integer('bust'),
    waist: integer('waist'),
    hip: integer('hip'),
    cup: code('cup'),
    type: code('type'),
    tattoo: codes('tattoo'),
    plasticSurgery: codes('plastic_surgery'),
    hairLoss: code('hair_loss'),
    hairLossSpan: code('hair_loss_span'),
    breastAugmentation: code('breast_augmentation'),
    breastAugmentationSpan: code('breast_augmentation_span'),
    braces: code('braces'),
    // Lifestyle
    sake: code('sake'),
    tobacco: code('tobacco'),
    golf: code('golf'),
    holiday: code('holiday'),
    foodAllergies: codes('food_allergies'),
    personality: codes('personality'),
    // Work
    occupation: code('occupation'),
    employment: code('employment'),
    sideJob: code('side_job'),
    company: code('company'),
    income: integer('income'),
    // Preferences
    jointParty: code('joint_party'),
    dateType: code('date_type'),
    preferredMan: codes('preferred_man'),
    motivation: code('motivation'),
    foreignerVip: code('foreigner_vip'),
    trip: code('trip'),
    timeSlots: codes('time_slots'),
    ageDecades: codes('age_decades'),
    menDated: code('men_dated'),
    howDated: code('how_dated'),
    pr: note('pr', 1000),
    // Sales notes
    womenRank: integer('women_rank').notNull().default(0),
    entryType: integer('entry_type').notNull().default(0),
    chargeStaff: code('charge_staff'),
    media: code('media'),
    importance: code('importance'),
    salesNote: note('sales_note', 2000),
    updatedBy: integer('updated_by').references(() => users.id, { onDelete: 'set null' }),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    index('member_profiles_birth_date_idx').on(table.birthDate),
    index('member_profiles_height_idx').on(table.height),
    index('member_profiles_bust_idx').on(table.bust),
    index('member_profiles_cup_idx').on(table.cup),
    index('member_profiles_area_idx').on(table.area),
    index('member_profiles_prefecture_idx').on(table.prefecture),
    index('member_profiles_women_rank_idx').on(table.womenRank),
    index('member_profiles_company_idx').on(table.company),
    index('member_profiles_sake_idx').on(table.sake),
    index('member_profiles_golf_idx').on(table.golf),
    index('member_profiles_tobacco_idx').on(table.tobacco),
    index('member_profiles_joint_party_idx').on(table.jointParty),
    index('member_profiles_blood_type_idx').on(table.bloodType),
    index('member_profiles_languages_idx').using('gin', table.languages),
    index('member_profiles_type_idx').on(table.type),
    index('member_profiles_entry_type_idx').on(table.entryType),
  ],
);

/** Every change of a woman's rank or a member's entry type: who, when, from and to. */
export const memberProfileHistory = pgTable(
  'member_profile_history',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    userId: ownedBy('user_id', () => users.id),
    field: varchar('field', { length: 20 }).$type<ProfileHistoryField>().notNull(),
    fromCode: integer('from_code'),
    toCode: integer('to_code'),
    actorId: integer('actor_id').references(() => users.id, { onDelete: 'set null' }),
    actorName: varchar('actor_name', { length: 50 }).notNull(),
    createdAt: createdAt(),
  },
  (table) => [index('member_profile_history_user_id_idx').on(table.userId, table.id)],
);

/** A member's photos, in the order staff set; re-encoded without metadata, served by signed URL. */
export const memberPhotos = pgTable(
  'member_photos',
  {
    ...storedImageColumns(),
    userId: ownedBy('user_id', () => users.id),
    position: integer('position').notNull().default(0),
    createdAt: createdAt(),
  },
  (table) => [index('member_photos_user_id_idx').on(table.userId, table.position)],
);

/**
 * The club's own code lists, edited by the owner: companies (`id:name`), media (`parent` is the company)
 * and the staff in charge. A profile keeps the code; a removed entry simply shows no label.
 */
export const clubLookupItems = pgTable(
  'club_lookup_items',
  {
    list: varchar('list', { length: 20 }).$type<ClubLookupName>().notNull(),
    code: integer('code').notNull(),
    label: varchar('label', { length: 100 }).notNull(),
    parent: integer('parent'),
    position: integer('position').notNull().default(0),
  },
  (table) => [primaryKey({ columns: [table.list, table.code] })],
);

/**
 * The club's settings that the owner edits (product.md §19.8), one row per key. `member_editable_fields`:
 * the profile fields a member may change on their own profile (string[] of PROFILE_FIELDS names).
 */
export const clubSettings = pgTable('club_settings', {
  key: varchar('key', { length: 40 }).primaryKey(),
  value: jsonb('value').$type<unknown>().notNull(),
  updatedBy: integer('updated_by').references(() => users.id, { onDelete: 'set null' }),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

export type MemberProfileRecord = typeof memberProfiles.$inferSelect;
export type NewMemberProfileRecord = typeof memberProfiles.$inferInsert;
export type MemberPhotoRecord = typeof memberPhotos.$inferSelect;
export type MemberProfileHistoryRecord = typeof memberProfileHistory.$inferSelect;
export type ClubLookupItemRecord = typeof clubLookupItems.$inferSelect;
