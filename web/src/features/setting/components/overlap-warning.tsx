import {
  bookedOfRow,
  confirmedSlot,
  jaMember,
  settingOverlaps,
  slotLabel,
  type SettingRow,
} from '@enishi/contract';
import { Phrases } from '@/components/ui/phrases';
import { useSession } from '@/lib/session';
import { useSettings } from '../api/settings';

/*
 * No double booking (product.md §18.5): staff read on a waiting request which of its slots meet a confirmed
 * setting of the same man or woman (the server's `overlaps`); a man reads in his request form, before sending,
 * which of his slots meet one of his own confirmed settings (the contract's rule, on his list).
 */

const t = jaMember.setting.overlap;

/** The staff's warning on a waiting request, naming each confirmed setting one of its slots meets. */
export function OverlapWarning({ row, id }: { row: SettingRow; id?: string }) {
  const overlaps = row.overlaps ?? [];
  if (row.status !== 'requested' || overlaps.length === 0) return null;
  return (
    <div className="setting-overlap" id={id} role="note" aria-label={t.heading}>
      <p className="setting-overlap__title">
        <Phrases text={t.heading} />
      </p>
      <ul className="setting-overlap__list">
        {overlaps.map(({ slot, who, other }) => (
          <li key={`${slot}-${other.id}`}>
            <Phrases
              text={t.warning(
                slot,
                who === 'man' ? row.men.name : row.women.name,
                slotLabel(other.at),
                who === 'man' ? other.women : other.men,
                other.id,
              )}
            />
          </li>
        ))}
      </ul>
    </div>
  );
}

/** The man's own confirmed settings that the slots he is choosing meet, as sentences. */
function useOwnOverlaps(slots: readonly string[]): string[] {
  const session = useSession();
  const arranged = useSettings('arranged');
  const mine = arranged.data?.pages.flatMap((page) => page.rows) ?? [];
  if (!session || mine.length === 0) return [];
  const asked = { id: 0, status: 'requested' as const, slot: null, preferred: slots, man: session.uid };
  const found = settingOverlaps({ ...asked, woman: null, enquiryWoman: null }, mine.map(bookedOfRow));
  return found.map(({ slot, other }) => {
    const row = mine.find((each) => each.id === other.id);
    return t.own(slot, slotLabel(confirmedSlot(other) ?? ''), row?.women.name ?? '');
  });
}

/** The man's warning in his request form; he may send all the same (staff decide). */
export function OwnOverlapWarning({ slots }: { slots: readonly string[] }) {
  const lines = useOwnOverlaps(slots);
  return (
    <div aria-live="polite">
      {lines.length > 0 ? (
        <div className="setting-overlap" role="note" aria-label={t.heading}>
          <ul className="setting-overlap__list">
            {lines.map((line) => (
              <li key={line}>
                <Phrases text={line} />
              </li>
            ))}
          </ul>
          <p className="setting-overlap__next">
            <Phrases text={t.ownNext} />
          </p>
        </div>
      ) : null}
    </div>
  );
}
