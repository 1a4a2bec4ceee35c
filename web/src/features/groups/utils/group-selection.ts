import { useSyncExternalStore } from 'react';
import { z } from 'zod';

/*
 * The man and the woman chosen for a new group talk (product.md §4: choice, pick each, confirm). Kept in this
 * tab's sessionStorage so that a reload, or going back and forth between the screens, keeps the choice;
 * it belongs to the staff member who made it, so another login in the same tab starts empty.
 */
const KEY = 'enishi.group-selection';

const Chosen = z.object({ uid: z.number(), id: z.string(), name: z.string() });
export type Chosen = z.infer<typeof Chosen>;
const Selection = z.object({ by: z.number(), man: Chosen.nullable(), woman: Chosen.nullable() });
type Selection = z.infer<typeof Selection>;
export type Side = 'man' | 'woman';

const listeners = new Set<() => void>();
let cache: { raw: string | null; value: Selection | null } = { raw: null, value: null };

function storage(): Storage | undefined {
  try {
    return globalThis.sessionStorage;
  } catch {
    return undefined;
  }
}

function read(): Selection | null {
  const raw = storage()?.getItem(KEY) ?? null;
  if (raw === cache.raw) return cache.value;
  let value: Selection | null = null;
  try {
    const parsed = Selection.safeParse(raw ? JSON.parse(raw) : null);
    value = parsed.success ? parsed.data : null;
  } catch {
    value = null;
  }
  cache = { raw, value };
  return value;
}

function write(selection: Selection | null): void {
  const store = storage();
  if (selection) store?.setItem(KEY, JSON.stringify(selection));
  else store?.removeItem(KEY);
  listeners.forEach((listener) => listener());
}

const empty = { man: null, woman: null } as const;

/** The current choice of the staff member `staffUid`. */
export function getGroupSelection(staffUid: number): { man: Chosen | null; woman: Chosen | null } {
  const selection = read();
  return selection && selection.by === staffUid ? selection : empty;
}

export function chooseForGroup(staffUid: number, side: Side, chosen: Chosen): void {
  const current = getGroupSelection(staffUid);
  write({ by: staffUid, man: current.man, woman: current.woman, [side]: chosen });
}

export function clearGroupSelection(): void {
  write(null);
}

export function useGroupSelection(staffUid: number) {
  const subscribe = (listener: () => void) => {
    listeners.add(listener);
    return () => listeners.delete(listener);
  };
  const selection = useSyncExternalStore(subscribe, read, read);
  return selection && selection.by === staffUid ? selection : empty;
}
