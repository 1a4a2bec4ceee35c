import { MEN_RANKS_LABELS, csvFile, jaMember, lookupLabel, type MemberTableRow } from '@enishi/contract';
import type { MemberExportItem, MemberTableItem } from '../repositories/member-table-repository.js';

/** A member table row (product.md §2.8): never the password hash, only what the table shows. */
export function presentMemberTableRow(item: MemberTableItem): MemberTableRow {
  return {
    uid: item.uid,
    id: item.loginId,
    name: item.name,
    name_kana: item.nameKana,
    role: item.role,
    rank: item.rank,
    entry_type: item.entryType,
    last_activity: item.lastActivity?.toISOString() ?? null,
    unread: item.unread,
    conversation_id: item.conversationId,
  };
}

/**
 * The CSV export of a member table (product.md §2.8): the member form's columns under its labels — 名前,
 * ふりがな, ID, ランク (men, by its label), 紹介者 — and never a password.
 */
export function presentMemberCsv(kind: 'men' | 'women', items: readonly MemberExportItem[]): string {
  const f = jaMember.members.fields;
  const men = kind === 'men';
  const header = men
    ? [f.name, f.name_kana, f.id, f.rank, f.introducer]
    : [f.name, f.name_kana, f.id, f.introducer];
  const rows = items.map((item) => {
    const start = [item.name, item.nameKana ?? '', item.loginId];
    return men
      ? [...start, lookupLabel(MEN_RANKS_LABELS, item.rank), item.introducer]
      : [...start, item.introducer];
  });
  return csvFile(header, rows);
}
