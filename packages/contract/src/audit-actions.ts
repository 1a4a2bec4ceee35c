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
  'calendar',
  'import',
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];
