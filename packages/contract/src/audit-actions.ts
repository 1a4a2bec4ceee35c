/** What an audit log row records (product.md §2.8); the database's check allows these only. */
export const AUDIT_ACTIONS = [
  'add',
  'update',
  'delete',
  'image',
  'profile',
  'photo',
  'sessions',
  'security',
  'unsend',
  'desk', // a desk talk's status or 担当 (product.md §2.6)
  'calendar',
  'import',
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];
