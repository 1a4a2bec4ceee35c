import type { MemberImportPreviewReply, MemberImportReply } from '@enishi/contract';
import { api } from '@/lib/api-client';

export type ImportKind = 'men' | 'women';

/** A file's bytes as base64, as the import calls carry it (the server reads UTF-8 or Shift_JIS). */
export async function fileAsBase64(file: Blob): Promise<string> {
  const bytes = new Uint8Array(await file.arrayBuffer());
  let binary = '';
  // In slices: String.fromCharCode takes its bytes as arguments, and a call has a limit on those.
  for (let start = 0; start < bytes.length; start += 0x8000)
    binary += String.fromCharCode(...bytes.subarray(start, start + 0x8000));
  return btoa(binary);
}

/** POST /api/members/import/preview: every row of the file with its errors per cell (product.md §2.8). */
export function previewImport(kind: ImportKind, file: string): Promise<MemberImportPreviewReply> {
  return api('members/import/preview', { kind, file });
}

/** POST /api/members/import: all rows or none; the first passwords come back once. */
export function runImport(kind: ImportKind, file: string): Promise<MemberImportReply> {
  return api('members/import', { kind, file });
}
