import {
  SETTING_OVERLAP_MS,
  jaMember,
  confirmedSlot,
  settingOverlaps,
  slotLabel,
  slotOf,
  type BookedSetting,
  type SettingOverlap,
  type SettingOverlapRow,
} from '@enishi/contract';
import type { NewAuditRecord } from '../db/schema-admin.js';
import { AppError } from '../errors.js';
import type { SettingPeople, SettingRequestRow } from '../repositories/setting-repository.js';
import type { Actor } from './session-service.js';

/*
 * No double booking (product.md §18.5) on the server: what to read around a request, the overlaps as staff
 * read them, the 409 of a confirmation without a reason and the audit row of one with a reason. Whether two
 * settings overlap is the contract's `settingOverlaps`, here only applied.
 */

/** A request as the overlap rule reads it. */
export function bookedOf(row: SettingRequestRow): BookedSetting {
  return {
    id: row.id,
    status: row.status,
    slot: row.slot,
    preferred: [row.preferred1, row.preferred2, row.preferred3].map(slotOf),
    man: row.manId,
    woman: row.womanId,
    enquiryWoman: row.enquiryWomanId,
  };
}

/** The men and women of these requests. */
export function peopleOf(rows: readonly SettingRequestRow[]): SettingPeople {
  const present = (ids: (number | null)[]) => [...new Set(ids.filter((id): id is number => id !== null))];
  return {
    men: present(rows.map((row) => row.manId)),
    women: present(rows.map((row) => row.womanId)),
    enquiryWomen: present(rows.map((row) => row.enquiryWomanId)),
  };
}

/** The span that holds every setting within two hours of any of these instants. */
export function around(instants: readonly Date[]): { from: Date; to: Date } {
  const times = instants.map((instant) => instant.getTime());
  return {
    from: new Date(Math.min(...times) - SETTING_OVERLAP_MS),
    to: new Date(Math.max(...times) + SETTING_OVERLAP_MS),
  };
}

/** Every preferred slot of these requests, as instants. */
export const slotsOf = (rows: readonly SettingRequestRow[]): Date[] =>
  rows.flatMap((row) => [row.preferred1, row.preferred2, row.preferred3]);

/** The confirmed settings each slot of `row` overlaps, as the wire carries them (`SettingRow.overlaps`). */
export function overlapRows(
  row: SettingRequestRow,
  confirmed: readonly SettingRequestRow[],
  slots?: readonly number[],
): { found: SettingOverlap[]; rows: SettingOverlapRow[] } {
  const names = new Map(confirmed.map((each) => [each.id, each]));
  const found = settingOverlaps(bookedOf(row), confirmed.map(bookedOf), slots);
  return {
    found,
    rows: found.map((overlap) => {
      const other = names.get(overlap.other.id);
      return {
        slot: overlap.slot,
        who: overlap.who,
        other: {
          id: overlap.other.id,
          at: confirmedSlot(overlap.other)!,
          men: other?.manName ?? '',
          women: other?.womanName ?? '',
        },
      };
    }),
  };
}

/**
 * The 409 of a confirmation that overlaps without a reason: its text names the first setting it meets (whose,
 * when, with whom); the reply carries them all.
 */
export function overlapRefusal(row: SettingRequestRow, overlaps: SettingOverlapRow[]): AppError {
  const first = overlaps[0]!;
  const person = first.who === 'man' ? (row.manName ?? '') : (row.womanName ?? '');
  const partner = first.who === 'man' ? first.other.women : first.other.men;
  return new AppError(
    'conflict',
    jaMember.setting.errors.overlap(person, slotLabel(first.other.at), partner, first.other.id),
    { overlaps },
  );
}

/**
 * The audit row of a confirmation made despite an overlap: an `update` row (the log's actions are fixed by
 * the database) of the person double-booked, naming the setting, the ones it meets and the reason.
 */
export function overrideAudit(
  actor: Actor,
  row: SettingRequestRow,
  target: { uid: number; role: number; name: string },
  overlaps: SettingOverlapRow[],
  reason: string,
): NewAuditRecord {
  const at = slotOf([row.preferred1, row.preferred2, row.preferred3][(row.slot ?? 1) - 1]!);
  return {
    actorId: actor.uid,
    actorName: actor.name.slice(0, 50),
    action: 'update',
    targetId: target.uid,
    targetRole: target.role,
    targetName: target.name.slice(0, 50),
    changes: {
      setting: [null, { id: row.id, at, man: row.manName ?? '', woman: row.womanName ?? '' }],
      overlaps: [
        null,
        overlaps.map(({ other }) => ({ id: other.id, at: other.at, man: other.men, woman: other.women })),
      ],
      overlapReason: [null, reason],
    },
  };
}
