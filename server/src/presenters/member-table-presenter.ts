import type { MemberTableRow } from '@enishi/contract';
import type { MemberTableItem } from '../repositories/member-table-repository.js';

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
