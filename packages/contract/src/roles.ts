/** Roles of product.md §6: 1 admin, 2 owner, 3 staff (the staff menu works up to 6), 101 male, 201 female. */
export const ROLE = { admin: 1, owner: 2, staff: 3, staffMenuLimit: 6, male: 101, female: 201 } as const;
export type Role = number;
