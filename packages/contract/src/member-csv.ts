import { z } from 'zod';
import { ja } from './ja.js';
import { MemberTableBody } from './back-office.js';

/*
 * The member tables' CSV export (product.md §2.8, §11.6): every man or woman the table's filters match, in
 * the table's order, with the member form's columns (never a password).
 */

// POST /api/members/export {ssid, kind: 'men'|'women', keyword?, rank?, entry_type?, sort?, desc?}
//   -> {file_name, csv, count}. Staff (member.manage).
export const MemberExportBody = MemberTableBody.omit({ page: true, size: true })
  .extend({ kind: z.enum(['men', 'women'], { error: ja.errors.badRequest }) })
  .strict();
export type MemberExportBody = z.input<typeof MemberExportBody>;

export const MemberExportReply = z.object({
  /** What the download is called (the catalogue's `table.csvFile`). */
  file_name: z.string(),
  /** UTF-8 with a byte order mark, CRLF, RFC 4180 quoting, a header row of the form's labels. */
  csv: z.string(),
  /** Members in it (the header row not counted). */
  count: z.number(),
});
export type MemberExportReply = z.infer<typeof MemberExportReply>;
