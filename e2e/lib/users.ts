import type { SeedUser } from './server.js';

/** The people of the end-to-end club. Passwords use only the characters product.md §5 allows. */
export const people = {
  owner: { id: 'owner-e2e', password: 'Owner-pass.1', name: '高橋オーナー', role: 2 },
  admin: { id: 'admin-e2e', password: 'Admin-pass.1', name: '伊藤管理者', role: 1 },
  staff: { id: 'staff-e2e', password: 'Staff-pass.1', name: '鈴木スタッフ', role: 3 },
  man: { id: 'man-e2e', password: 'Man-pass.1', name: '山田太郎', role: 101, rank: 2 },
  woman: { id: 'woman-e2e', password: 'Woman-pass.1', name: '佐藤花子', role: 201 },
} satisfies Record<string, SeedUser>;

export type Person = keyof typeof people;
