import type { LookupItem } from './items.js';
import { AREAS, PREFECTURES } from './places.js';
import {
  ENTRY_TYPES,
  IMPORTANCE,
  MEN_RANK_LABELS,
  MEN_RANKS_LABELS,
  REGISTER_TYPE_RANK,
  WOMEN_RANKS,
} from './ranks.js';
import {
  BLOOD_TYPES,
  BRACES,
  BREAST_AUGMENTATION,
  CUP_SIZES,
  HAIR_LOSS,
  LOOKS,
  PLASTIC_SURGERY_PARTS,
  TATTOO_PARTS,
  TIME_SPANS,
} from './appearance.js';
import {
  CHILDREN,
  CONTACT_METHODS,
  DRINKING,
  EDUCATION,
  FOOD_ALLERGIES,
  GOLF,
  HOLIDAYS,
  LANGUAGE_LEVELS,
  LANGUAGES,
  LIVING,
  MARRIAGE,
  PARTNER_KINDS,
  TOBACCO,
  TOBACCO_VIEW,
} from './lifestyle.js';
import { EMPLOYMENT_TYPES, OCCUPATIONS, SIDE_JOBS } from './work.js';
import {
  AGE_DECADES,
  DATE_TYPES,
  FOREIGNER_VIP,
  HOW_DATED,
  ID_DOCUMENTS,
  JOINT_PARTY,
  MEN_DATED,
  MOTIVATIONS,
  PERSONALITY,
  PREFERRED_MAN,
  TIME_SLOTS,
  TRIPS,
} from './preferences.js';

export * from './items.js';
export * from './places.js';
export * from './ranks.js';
export * from './appearance.js';
export * from './lifestyle.js';
export * from './work.js';
export * from './preferences.js';

/** Every fixed code table by the name `/api/lookups` serves it under (product.md §9.5, §19.1). */
export const LOOKUPS = {
  areas: AREAS,
  prefectures: PREFECTURES,
  womenRanks: WOMEN_RANKS,
  menRanks: MEN_RANKS_LABELS,
  menRankLabels: MEN_RANK_LABELS,
  registerTypeRank: REGISTER_TYPE_RANK,
  entryTypes: ENTRY_TYPES,
  importance: IMPORTANCE,
  cupSizes: CUP_SIZES,
  bloodTypes: BLOOD_TYPES,
  looks: LOOKS,
  tattooParts: TATTOO_PARTS,
  plasticSurgeryParts: PLASTIC_SURGERY_PARTS,
  hairLoss: HAIR_LOSS,
  breastAugmentation: BREAST_AUGMENTATION,
  timeSpans: TIME_SPANS,
  braces: BRACES,
  marriage: MARRIAGE,
  children: CHILDREN,
  drinking: DRINKING,
  tobacco: TOBACCO,
  tobaccoView: TOBACCO_VIEW,
  foodAllergies: FOOD_ALLERGIES,
  education: EDUCATION,
  languages: LANGUAGES,
  languageLevels: LANGUAGE_LEVELS,
  partnerKinds: PARTNER_KINDS,
  living: LIVING,
  holidays: HOLIDAYS,
  golf: GOLF,
  contactMethods: CONTACT_METHODS,
  occupations: OCCUPATIONS,
  employmentTypes: EMPLOYMENT_TYPES,
  sideJobs: SIDE_JOBS,
  jointParty: JOINT_PARTY,
  dateTypes: DATE_TYPES,
  preferredMan: PREFERRED_MAN,
  personality: PERSONALITY,
  motivations: MOTIVATIONS,
  foreignerVip: FOREIGNER_VIP,
  idDocuments: ID_DOCUMENTS,
  menDated: MEN_DATED,
  howDated: HOW_DATED,
  trips: TRIPS,
  timeSlots: TIME_SLOTS,
  ageDecades: AGE_DECADES,
} as const satisfies Record<string, LookupItem[]>;
export type FixedLookupName = keyof typeof LOOKUPS;

/**
 * The club's own lists, kept in the database and edited by the owner (product.md §19.1): about 200 companies
 * (`id:name`), the media each company runs (`parent` is the company's code) and the staff in charge.
 */
export const CLUB_LOOKUPS = ['companies', 'media', 'chargeStaff'] as const;
export type ClubLookupName = (typeof CLUB_LOOKUPS)[number];

export type LookupName = FixedLookupName | ClubLookupName;
export type Lookups = Record<LookupName, LookupItem[]>;
