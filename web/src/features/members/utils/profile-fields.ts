import {
  PROFILE_FIELDS,
  PROFILE_FIELD_NAMES,
  PROFILE_GROUPS,
  lookupLabel,
  type LookupItem,
  type Lookups,
  type Profile,
  type ProfileField,
  type ProfileGroup,
  type RoleKind,
  ROLE_TRAITS,
} from '@enishi/contract';

/** Fields that describe only women or only men; the other side's form leaves them out. */
const WOMEN_ONLY = new Set<ProfileField>([
  'bust',
  'waist',
  'hip',
  'cup',
  'breast_augmentation',
  'breast_augmentation_span',
  'women_rank',
]);
const MEN_ONLY = new Set<ProfileField>(['hair_loss', 'hair_loss_span', 'income']);
/** The fields each kind's form leaves out: the other side's (a role the club does not use: as women). */
const LEFT_OUT: Record<RoleKind, Set<ProfileField>> = { men: WOMEN_ONLY, women: MEN_ONLY, staff: MEN_ONLY };

/** The groups of the staff form (product.md §19.5) with the fields a member of this role has. */
export function fieldsByGroup(role: number): { group: ProfileGroup; fields: ProfileField[] }[] {
  const skip = LEFT_OUT[ROLE_TRAITS[role]?.kind ?? 'women'];
  return PROFILE_GROUPS.map((group) => ({
    group,
    fields: PROFILE_FIELD_NAMES.filter((field) => PROFILE_FIELDS[field].group === group && !skip.has(field)),
  }));
}

/** The fields whose value differs from the stored profile: what an update sends. */
export function changedFields(stored: Profile, draft: Profile): Partial<Profile> {
  const patch: Record<string, unknown> = {};
  for (const field of PROFILE_FIELD_NAMES) {
    if (JSON.stringify(stored[field]) !== JSON.stringify(draft[field])) patch[field] = draft[field];
  }
  return patch as Partial<Profile>;
}

/**
 * The choices of a coded field; a medium shows its company after its name. A blank code (area 0) is left
 * out: the form's own 未設定 stands for it (product.md §9.5).
 */
export function choicesOf(field: ProfileField, lookups: Lookups): LookupItem[] {
  const spec = PROFILE_FIELDS[field];
  if (!('lookup' in spec)) return [];
  const items = (lookups[spec.lookup] ?? []).filter((item) => item.label !== '');
  if (spec.lookup !== 'media') return items;
  return items.map((item) => {
    const company = lookupLabel(lookups.companies ?? [], item.parent);
    return company ? { ...item, label: `${item.label}（${company}）` } : item;
  });
}
