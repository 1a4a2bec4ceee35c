import type { MemberExportBody } from '@enishi/contract';
import { api } from '@/lib/api-client';

export type MemberExportQuery = Required<Omit<MemberExportBody, 'ssid'>>;

/**
 * POST /api/members/export: every member the table's filters match as CSV (product.md §2.8), saved as a
 * download under the name the server gives. Resolves to how many members it holds.
 */
export async function exportMembers(query: MemberExportQuery): Promise<number> {
  const { csv, file_name, count } = await api('members/export', query);
  const url = URL.createObjectURL(new Blob([csv], { type: 'text/csv;charset=utf-8' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = file_name;
  link.click();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
  return count;
}
