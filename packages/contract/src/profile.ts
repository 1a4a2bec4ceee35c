import { z } from 'zod';
import { jaProfile } from './ja-profile.js';
import { NAME_KANA_MAX, isReading, normaliseReading } from './kana.js';
import { members } from './ja-member/members.js';
import { LOOKUPS, type LookupItem, type LookupName } from './lookups/index.js';

/*
 * Member profiles (product.md §3, §19.5). PROFILE_FIELDS is the one list of fields: the server's columns
 * (server/src/db/schema-profile.ts) carry the same snake_case names, the zod schema below is built from it,
 * and the staff edit screen lays its groups and selects out from it.
 */

export const PROFILE_GROUPS = ['basics', 'appearance', 'lifestyle', 'work', 'preferences', 'sales'] as const;
export type ProfileGroup = (typeof PROFILE_GROUPS)[number];

/** One code of a table (a select), several codes (checkboxes), a whole number in a range, text or a date. */
export type ProfileFieldSpec =
  | { group: ProfileGroup; kind: 'code'; lookup: LookupName; required?: true }
  | { group: ProfileGroup; kind: 'codes'; lookup: LookupName }
  | { group: ProfileGroup; kind: 'number'; min: number; max: number }
  | { group: ProfileGroup; kind: 'text'; max: number; multiline?: boolean }
  | { group: ProfileGroup; kind: 'date' };

const code = (group: ProfileGroup, lookup: LookupName) => ({ group, kind: 'code', lookup }) as const;
const codes = (group: ProfileGroup, lookup: LookupName) => ({ group, kind: 'codes', lookup }) as const;
const num = (group: ProfileGroup, min: number, max: number) => ({ group, kind: 'number', min, max }) as const;

export const PROFILE_FIELDS = {
  // Basics
  name_kana: { group: 'basics', kind: 'text', max: 50 },
  nickname: { group: 'basics', kind: 'text', max: 30 },
  birth_date: { group: 'basics', kind: 'date' },
  prefecture: code('basics', 'prefectures'),
  area: code('basics', 'areas'),
  blood_type: code('basics', 'bloodTypes'),
  marriage: code('basics', 'marriage'),
  children: code('basics', 'children'),
  education: code('basics', 'education'),
  languages: codes('basics', 'languages'),
  language_level: code('basics', 'languageLevels'),
  living: code('basics', 'living'),
  partner: code('basics', 'partnerKinds'),
  contact_method: code('basics', 'contactMethods'),
  id_document: code('basics', 'idDocuments'),
  // Appearance
  height: num('appearance', 120, 220),
  weight: num('appearance', 30, 200),
  bust: num('appearance', 50, 150),
  waist: num('appearance', 40, 150),
  hip: num('appearance', 50, 150),
  cup: code('appearance', 'cupSizes'),
  type: code('appearance', 'looks'),
  tattoo: codes('appearance', 'tattooParts'),
  plastic_surgery: codes('appearance', 'plasticSurgeryParts'),
  hair_loss: code('appearance', 'hairLoss'),
  hair_loss_span: code('appearance', 'timeSpans'),
  breast_augmentation: code('appearance', 'breastAugmentation'),
  breast_augmentation_span: code('appearance', 'timeSpans'),
  braces: code('appearance', 'braces'),
  // Lifestyle
  sake: code('lifestyle', 'drinking'),
  tobacco: code('lifestyle', 'tobacco'),
  golf: code('lifestyle', 'golf'),
  holiday: code('lifestyle', 'holidays'),
  food_allergies: codes('lifestyle', 'foodAllergies'),
  personality: codes('lifestyle', 'personality'),
  // Work
  occupation: code('work', 'occupations'),
  employment: code('work', 'employmentTypes'),
  side_job: code('work', 'sideJobs'),
  company: code('work', 'companies'),
  income: num('work', 0, 100_000),
  // Preferences
  joint_party: code('preferences', 'jointParty'),
  date_type: code('preferences', 'dateTypes'),
  preferred_man: codes('preferences', 'preferredMan'),
  motivation: code('preferences', 'motivations'),
  foreigner_vip: code('preferences', 'foreignerVip'),
  trip: code('preferences', 'trips'),
  time_slots: codes('preferences', 'timeSlots'),
  age_decades: codes('preferences', 'ageDecades'),
  men_dated: code('preferences', 'menDated'),
  how_dated: code('preferences', 'howDated'),
  pr: { group: 'preferences', kind: 'text', max: 1000, multiline: true },
  // Sales notes (staff only)
  // Always set (0: not ranked, REGIST); never cleared.
  women_rank: { ...code('sales', 'womenRanks'), required: true },
  entry_type: { ...code('sales', 'entryTypes'), required: true },
  charge_staff: code('sales', 'chargeStaff'),
  media: code('sales', 'media'),
  importance: code('sales', 'importance'),
  sales_note: { group: 'sales', kind: 'text', max: 2000, multiline: true },
} as const satisfies Record<string, ProfileFieldSpec>;

export type ProfileField = keyof typeof PROFILE_FIELDS;
export const PROFILE_FIELD_NAMES = Object.keys(PROFILE_FIELDS) as ProfileField[];

type FieldValue<S> = S extends { kind: 'codes' }
  ? number[]
  : S extends { kind: 'text' }
    ? string
    : S extends { kind: 'date' }
      ? string | null
      : number | null;

/** A whole profile as stored and read: every field present (null or [] or '' when not set). */
export type Profile = { [K in ProfileField]: FieldValue<(typeof PROFILE_FIELDS)[K]> };

/**
 * The fields the owner may let members change on their own profile (product.md §19.10): every field but the
 * sales notes, which a member never sees.
 */
export const MEMBER_EDITABLE_CANDIDATES = PROFILE_FIELD_NAMES.filter(
  (name) => PROFILE_FIELDS[name].group !== 'sales',
);

/** Fields whose changes are kept in the rank history with who, when, from and to. */
export const PROFILE_HISTORY_FIELDS = ['women_rank', 'entry_type'] as const;
export type ProfileHistoryField = (typeof PROFILE_HISTORY_FIELDS)[number];

/** The club's own lists are checked by the server against the database; the fixed tables here. */
const CLUB_LISTS = new Set<LookupName>(['companies', 'media', 'chargeStaff']);
const CODES_MAX = 20;
const DATE_PATTERN = /^\d{4}-\d{2}-\d{2}$/;

function isRealDate(value: string): boolean {
  if (!DATE_PATTERN.test(value)) return false;
  const date = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === value && value >= '1900-01-01';
}

function knownCode(lookup: LookupName, value: number): boolean {
  if (CLUB_LISTS.has(lookup)) return Number.isInteger(value) && value >= 0 && value <= 2_147_483_647;
  return (LOOKUPS as Record<string, { code: number }[]>)[lookup]!.some((item) => item.code === value);
}

/** A code whose label is blank (area 0, product.md §9.5) means "not set": stored as no value. */
function blankCode(lookup: LookupName, value: number): boolean {
  if (CLUB_LISTS.has(lookup)) return false;
  return (LOOKUPS as Record<string, LookupItem[]>)[lookup]!.some(
    (item) => item.code === value && item.label === '',
  );
}

function fieldSchema(name: ProfileField): z.ZodType {
  const spec: ProfileFieldSpec = PROFILE_FIELDS[name];
  const label = jaProfile.fields[name];
  const e = jaProfile.errors;
  switch (spec.kind) {
    case 'code': {
      const one = z
        .number({ error: e.badCode(label) })
        .refine((value) => knownCode(spec.lookup, value), e.badCode(label));
      if (spec.required) return one;
      return one
        .nullable()
        .transform((value) => (value !== null && blankCode(spec.lookup, value) ? null : value));
    }
    case 'codes':
      return z
        .array(z.number({ error: e.badCode(label) }), { error: e.badCode(label) })
        .max(CODES_MAX, e.tooManyCodes(label))
        .refine((values) => values.every((value) => knownCode(spec.lookup, value)), e.badCode(label))
        .transform((values) => [...new Set(values)].sort((a, b) => a - b));
    case 'number':
      return z
        .number({ error: e.outOfRange(label, spec.min, spec.max) })
        .int(e.outOfRange(label, spec.min, spec.max))
        .min(spec.min, e.outOfRange(label, spec.min, spec.max))
        .max(spec.max, e.outOfRange(label, spec.min, spec.max))
        .nullable();
    case 'text':
      // The reading is the person's (users.name_kana, product.md §5.7): kept in hiragana, '' for none.
      if (name === 'name_kana') {
        return z
          .string({ error: e.notKana(label) })
          .transform(normaliseReading)
          .pipe(
            z
              .string()
              .max(spec.max, e.tooLong(label, spec.max))
              .refine((value) => value === '' || isReading(value), e.notKana(label)),
          );
      }
      return z
        .string({ error: e.tooLong(label, spec.max) })
        .transform((value) => value.trim())
        .pipe(z.string().max(spec.max, e.tooLong(label, spec.max)));
    case 'date':
      return z
        .string({ error: e.badDate(label) })
        .refine(isRealDate, e.badDate(label))
        .nullable()
        .transform((value) => value || null);
  }
}

/**
 * The reading (kana.ts) as adduser and updateuser take it: hiragana or katakana, stored in hiragana; '' or
 * null is no reading (null). Absent keeps the stored one, so a client that does not know the field never
 * erases it.
 */
export const NameKana = z
  .union([z.string(), z.null()], { error: members.errors.kanaInvalid })
  .transform((value) => normaliseReading(value ?? ''))
  .pipe(
    z
      .string()
      .max(NAME_KANA_MAX, members.errors.kanaTooLong)
      .refine((value) => value === '' || isReading(value), members.errors.kanaInvalid),
  )
  .transform((value) => value || null);

/** The fields a profile update may carry: any subset; what is absent stays as it is. */
export const ProfilePatch = z
  .object(Object.fromEntries(PROFILE_FIELD_NAMES.map((name) => [name, fieldSchema(name).optional()])))
  .strict() as unknown as z.ZodType<Partial<Profile>, Partial<Profile>>;
export type ProfilePatch = Partial<Profile>;

/** An empty profile: what a member without a stored one reads. */
export function emptyProfile(): Profile {
  const entries = PROFILE_FIELD_NAMES.map((name) => {
    const spec: ProfileFieldSpec = PROFILE_FIELDS[name];
    const value =
      spec.kind === 'codes'
        ? []
        : spec.kind === 'text'
          ? ''
          : spec.kind === 'code' && spec.required
            ? 0
            : null;
    return [name, value];
  });
  return Object.fromEntries(entries) as Profile;
}

/** Age in whole years on `today` (YYYY-MM-DD, Japan time) of someone born on `birthDate`. */
export function ageOn(birthDate: string, today: string): number {
  const years = Number(today.slice(0, 4)) - Number(birthDate.slice(0, 4));
  return today.slice(5) < birthDate.slice(5) ? years - 1 : years;
}
