import { useEffect, useSyncExternalStore } from 'react';
import { isStaffRole } from '@enishi/contract';
import { useSession } from './session';

/*
 * The catalogue's phrase breaks (BudouX, computed ahead by web/scripts/write-phrases.ts), loaded when a screen
 * first shows a catalogue text: the member area's table for everyone, the staff-only sections' table for staff
 * only, so that no member downloads it and no first load carries either (product.md §2.7). Until a table has
 * arrived, the text shows as it is (the browser's own `word-break: auto-phrase` where it has one).
 */

type Table = Readonly<Record<string, readonly number[]>>;
type Audience = 'member' | 'staff';

const tables: Table[] = [];
const listeners = new Set<() => void>();
const loads = new Map<Audience, Promise<void>>();

function add(table: Table): void {
  if (tables.includes(table)) return;
  tables.push(table);
  for (const listener of listeners) listener();
}

function breaksOf(text: string): readonly number[] | undefined {
  for (const table of tables) {
    const breaks = table[text];
    if (breaks) return breaks;
  }
  return undefined;
}

/** Loads the tables an audience's screens use (staff see the members' texts too); once each. */
export function loadPhraseBreaks(audience: Audience): Promise<void> {
  let load = loads.get(audience);
  if (!load) {
    const modules =
      audience === 'staff'
        ? [import('./phrases-member'), import('./phrases-staff')]
        : [import('./phrases-member')];
    load = Promise.all(modules).then((loaded) => loaded.forEach((module) => add(module.PHRASE_BREAKS)));
    loads.set(audience, load);
  }
  return load;
}

const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => listeners.delete(listener);
};

/** Where `text` (a catalogue text) may break; asks for the viewer's table the first time it is missing. */
export function usePhraseBreaks(text: string): readonly number[] | undefined {
  const breaks = useSyncExternalStore(subscribe, () => breaksOf(text));
  const audience: Audience = isStaffRole(useSession()?.role ?? 0) ? 'staff' : 'member';
  useEffect(() => {
    if (!breaks) loadPhraseBreaks(audience).catch(() => loads.delete(audience));
  }, [breaks, audience]);
  return breaks;
}
