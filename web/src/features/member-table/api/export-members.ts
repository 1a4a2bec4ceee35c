import type { MemberExportBody } from '@enishi/contract';
import { api } from '@/lib/api-client';
import { download } from './import-members';

export type MemberExportQuery = Required<Omit<MemberExportBody, 'ssid'>>;

/**
 * POST /api/members/export: every member the table's filters match as CSV (product.md §2.8), saved as a
 * download under the name the server gives. Resolves to how many members it holds.
 */
export async function exportMembers(query: MemberExportQuery): Promise<number> {
  const { csv, file_name, count } = await api('members/export', query);
  download(file_name, csv);
  return count;
}
