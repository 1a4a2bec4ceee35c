import { z } from 'zod';
import { ROLE_TRAITS } from './roles.js';

/**
 * 既読 in a group talk (product.md §12.2): a group has three sides, the man, the woman and the staff (any staff
 * member reading counts for the staff). A message shows 既読 N to its sender, N the sides other than the
 * sender's that have read up to it (at most 2). The server counts with these functions for the message pages
 * and sends the marks in the `read` frame; the app counts live with the same functions.
 */
export const GroupReadMarks = z.object({ men: z.number(), women: z.number(), staff: z.number() });
export type GroupReadMarks = z.infer<typeof GroupReadMarks>;

/** Each side's furthest read mark, from every reader's mark in the talk. */
export function groupReadMarks(marks: readonly { role: number; lastReadId: number }[]): GroupReadMarks {
  const sides: GroupReadMarks = { men: 0, women: 0, staff: 0 };
  for (const mark of marks) {
    const side = ROLE_TRAITS[mark.role]?.kind;
    if (side) sides[side] = Math.max(sides[side], mark.lastReadId);
  }
  return sides;
}
