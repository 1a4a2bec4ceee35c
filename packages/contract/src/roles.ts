/** Roles of product.md §6: 1 admin, 2 owner, 3 staff (the staff menu works up to 6), 101 male, 201 female. */
export const ROLE = { admin: 1, owner: 2, staff: 3, staffMenuLimit: 6, male: 101, female: 201 } as const;
export type Role = number;

/** The three kinds of record: staff (roles 1 to 6), men (101), women (201). */
export type RoleKind = 'staff' | 'men' | 'women';

/**
 * What a role is, as data (product.md §1, §6.7): never what it may do, which is permissions.ts's `can`.
 * Screens and lists read an entry by the role (`ROLE_TRAITS[role]?.ranked`) instead of branching on the
 * role's group; a kind read here is a key (of a table of labels, colours, sides), not something to compare
 * with a group (server/src/http/role-comparisons.test.ts fails on `.kind === 'men'`).
 */
export interface RoleTraits {
  /** Its kind of record: the admin screens and labels, the icon's colours, its side of a group talk's 既読. */
  kind: RoleKind;
  /** Whether its records carry a men's rank (一般, プラチナ ...). */
  ranked: boolean;
  /** Its news and banners group (1 men, 2 women, as CONTENT_TYPE in wire.ts); null for staff. */
  contentType: 1 | 2 | null;
}

const STAFF_TRAITS: RoleTraits = { kind: 'staff', ranked: false, contentType: null };

/** Each role's traits; a role not listed (0 for an account that is gone) has none. */
export const ROLE_TRAITS: Readonly<Partial<Record<number, RoleTraits>>> = {
  1: STAFF_TRAITS,
  2: STAFF_TRAITS,
  3: STAFF_TRAITS,
  4: STAFF_TRAITS,
  5: STAFF_TRAITS,
  6: STAFF_TRAITS,
  [ROLE.male]: { kind: 'men', ranked: true, contentType: 1 },
  [ROLE.female]: { kind: 'women', ranked: false, contentType: 2 },
};
