import { z } from 'zod';
import { ja } from './ja.js';
import { ssid } from './common.js';
import { memberImport as t } from './ja-member/member-import.js';

/*
 * The member tables' CSV import (product.md §2.8, §11.6): a file in the export's format (its header, UTF-8
 * with or without a byte order mark, or Shift_JIS as Excel in Japan saves it) is previewed row by row with
 * Japanese errors per cell, then written all or nothing. Each member gets a first password (never exported).
 */

/** Rows one file may hold (the header not counted). */
export const MEMBER_IMPORT_ROWS_MAX = 10_000;
/** Bytes one file may hold. */
export const MEMBER_IMPORT_BYTES_MAX = 5_000_000;
/** The file as base64: 4 characters per 3 bytes. */
const FILE_BASE64_MAX = Math.ceil(MEMBER_IMPORT_BYTES_MAX / 3) * 4;

/** The cells of a row, by the member form's field names (rank only for men). */
export const IMPORT_COLUMNS = ['name', 'name_kana', 'id', 'rank', 'introducer'] as const;
export type ImportColumn = (typeof IMPORT_COLUMNS)[number];

// POST /api/members/import/preview {ssid, kind, file} -> {rows, count, error_count} (member.manage on the kind)
// POST /api/members/import {ssid, kind, file} -> {count, file_name, csv} (the same; all rows or none)
export const MemberImportBody = z
  .object({
    ssid,
    kind: z.enum(['men', 'women'], { error: ja.errors.badRequest }),
    /** The file's bytes as base64 (the server reads the encoding). */
    file: z
      .string({ error: t.errors.noFile })
      .min(1, t.errors.noFile)
      .max(FILE_BASE64_MAX, t.errors.tooLarge)
      .regex(/^[A-Za-z0-9+/]*={0,2}$/, t.errors.unreadable),
  })
  .strict();
export type MemberImportBody = z.input<typeof MemberImportBody>;

/** One row of the file as read: its line in the file, its cells, and the Japanese error of each bad cell. */
export const ImportRow = z.object({
  line: z.number(),
  cells: z.object({
    name: z.string(),
    name_kana: z.string(),
    id: z.string(),
    rank: z.string().optional(),
    introducer: z.string(),
  }),
  errors: z.partialRecord(z.enum(IMPORT_COLUMNS), z.string()),
});
export type ImportRow = z.infer<typeof ImportRow>;

export const MemberImportPreviewReply = z.object({
  rows: z.array(ImportRow),
  /** Rows in the file. */
  count: z.number(),
  /** Rows with at least one error: the import writes nothing while there is one. */
  error_count: z.number(),
});
export type MemberImportPreviewReply = z.infer<typeof MemberImportPreviewReply>;

export const MemberImportReply = z.object({
  /** Members registered. */
  count: z.number(),
  /** The first passwords' file (ID, 初回パスワード), shown once: UTF-8 with a byte order mark, CRLF. */
  file_name: z.string(),
  csv: z.string(),
});
export type MemberImportReply = z.infer<typeof MemberImportReply>;

/** A first password as the club hands it over: 20 base32 characters (100 bits) in groups of four. */
export const FIRST_PASSWORD_PATTERN = /^[0-9A-HJKMNP-TV-Z]{4}(-[0-9A-HJKMNP-TV-Z]{4}){4}$/;

/** The import's calls, spread into the call map (calls.ts). */
export const MEMBER_IMPORT_CALLS = {
  'members/import/preview': { body: MemberImportBody, reply: MemberImportPreviewReply },
  'members/import': { body: MemberImportBody, reply: MemberImportReply },
} as const;
