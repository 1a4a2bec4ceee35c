import { slotInstant, type SettingRow, type SettingStatus } from './setting.js';

/*
 * No double booking (product.md §18.5): a setting request's slot, or the slot staff confirm, that lies within
 * two hours of a confirmed setting of the same man or the same woman overlaps it. The rule is this module
 * only: the server's 409 and the staff's warnings, and the man's warning in his request form, all ask it.
 */

/** Two meetings closer than this overlap; exactly two hours apart do not. */
export const SETTING_OVERLAP_MS = 2 * 60 * 60 * 1000;

/** A setting as the rule reads it: who meets whom, its state, its three slots and the confirmed one. */
export interface BookedSetting {
  id: number;
  status: SettingStatus;
  /** The confirmed slot, 1 to 3 (null while none is). */
  slot: number | null;
  /** `YYYY-MM-DDTHH:mm`, Japan time. */
  preferred: readonly string[];
  man: number;
  /** The woman as a member here, or as one only the enquiry service knows (decision 023). */
  woman: number | null;
  enquiryWoman: number | null;
}

/** A row of /api/setting/list as the rule reads it (the web's warnings). */
export function bookedOfRow(
  row: Pick<SettingRow, 'id' | 'status' | 'slot' | 'preferred' | 'men' | 'women'>,
): BookedSetting {
  return {
    id: row.id,
    status: row.status,
    slot: row.slot,
    preferred: row.preferred,
    man: row.men.uid ?? 0,
    woman: row.women.uid,
    enquiryWoman: row.women.enquiry_id,
  };
}

/** One overlap: which slot of the setting asked about (1 to 3), whose, and the confirmed setting it meets. */
export interface SettingOverlap {
  slot: number;
  who: 'man' | 'woman';
  other: BookedSetting;
}

/** Whether two Japan-time slots lie less than two hours apart (a slot that is no real time overlaps nothing). */
export function slotsOverlap(a: string, b: string): boolean {
  const first = slotInstant(a);
  const second = slotInstant(b);
  if (!first || !second) return false;
  return Math.abs(first.getTime() - second.getTime()) < SETTING_OVERLAP_MS;
}

/** The confirmed slot of a setting, or null when it is not confirmed (requested, declined, cancelled). */
export function confirmedSlot(setting: BookedSetting): string | null {
  if (setting.status !== 'arranged' || setting.slot === null) return null;
  return setting.preferred[setting.slot - 1] ?? null;
}

/** Whether two settings share the woman: the same member, or the same woman of the enquiry service. */
function sameWoman(a: BookedSetting, b: BookedSetting): boolean {
  if (a.woman !== null && a.woman === b.woman) return true;
  return a.enquiryWoman !== null && a.enquiryWoman === b.enquiryWoman;
}

/**
 * The confirmed settings among `others` that `setting` would double-book: for each of `slots` (1 to 3; by
 * default all three), every other confirmed setting of the same man or the same woman less than two hours from
 * it. The setting itself, and settings not confirmed, never count. The man is named first when both are shared.
 */
export function settingOverlaps(
  setting: BookedSetting,
  others: readonly BookedSetting[],
  slots: readonly number[] = [1, 2, 3],
): SettingOverlap[] {
  const found: SettingOverlap[] = [];
  for (const slot of slots) {
    const at = setting.preferred[slot - 1];
    if (at === undefined) continue;
    for (const other of others) {
      const when = confirmedSlot(other);
      if (other.id === setting.id || when === null || !slotsOverlap(at, when)) continue;
      if (other.man === setting.man) found.push({ slot, who: 'man', other });
      else if (sameWoman(other, setting)) found.push({ slot, who: 'woman', other });
    }
  }
  return found;
}
