import { MEMBER_IMPORT_BYTES_MAX, jaMember } from '@enishi/contract';
import type { apiCalls } from '../http/calls.js';
import type { MemberImportService } from '../services/member-import-service.js';

/** A CSV file of 5,000,000 bytes is about 6.7 MB as base64; the JSON around it is small. */
const IMPORT_CALL_BODY_LIMIT = Math.ceil((MEMBER_IMPORT_BYTES_MAX * 4) / 3) + 64 * 1024;

/**
 * The member tables' CSV import (product.md §2.8): every row previewed with its errors per cell, then all
 * rows or none, each member with a first password shown once.
 */
export function memberImportRoutes(
  calls: ReturnType<typeof apiCalls>,
  services: { memberImport: MemberImportService },
): void {
  calls.session(
    'members/import/preview',
    'member.manage',
    async ({ body, actor }) => {
      const { rows } = await services.memberImport.preview(actor, body.kind, body.file);
      const errorCount = rows.filter((row) => Object.keys(row.errors).length > 0).length;
      return { rows, count: rows.length, error_count: errorCount };
    },
    { bodyLimit: IMPORT_CALL_BODY_LIMIT },
  );
  calls.session(
    'members/import',
    'member.manage',
    async ({ body, actor }) => {
      const imported = await services.memberImport.import(actor, body.kind, body.file);
      return { ...imported, file_name: jaMember.memberImport.passwordsFile(body.kind) };
    },
    { bodyLimit: IMPORT_CALL_BODY_LIMIT },
  );
}
