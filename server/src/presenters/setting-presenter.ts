import { slotOf, type SettingOverlapRow, type SettingRow } from '@enishi/contract';
import type { SettingRequestRow } from '../repositories/setting-repository.js';

/**
 * A setting request as its readers see it (product.md §18.2): slots in Japan time, names of the pair; for staff,
 * a waiting request's overlaps with confirmed settings (§18.5).
 */
export function presentSetting(row: SettingRequestRow & { overlaps?: SettingOverlapRow[] }): SettingRow {
  return {
    id: row.id,
    men: { uid: row.manId, name: row.manName ?? '' },
    women: { uid: row.womanId, name: row.womanName ?? '', enquiry_id: row.enquiryWomanId },
    preferred: [row.preferred1, row.preferred2, row.preferred3].map(slotOf),
    status: row.status,
    slot: row.slot,
    conversation_id: row.conversationId,
    created_at: row.createdAt.toISOString(),
    note: row.note,
    place: row.place,
    reason: row.reason,
    ...(row.overlaps ? { overlaps: row.overlaps } : {}),
  };
}
