import { useEffect, useSyncExternalStore } from 'react';
import { hashText, unpackPhrases } from './phrase-pack';

/*
 * The catalogue's phrase breaks (BudouX, computed ahead by web/scripts/write-phrases.ts), loaded when a screen
 * first shows a catalogue text: the member area's table for everyone, the staff-only sections' table for staff
 * only, so that no member downloads it and no first load carries either (product.md §2.7). Until a table has
 * arrived, the text shows as it is (the browser's own `word-break: auto-phrase` where it has one).
 */

export type Audience = 'member' | 'staff';

/** Every loaded table, by the hash of each text (lib/phrase-pack.ts). */
const breaksByHash = new Map<string, readonly number[]>();
const added = new Set<string>();
const listeners = new Set<() => void>();
const loads = new Map<Audience, Promise<void>>();
/**
 * Who views the screens, as the member area knows it (app/member-area.tsx). Told rather than read from the
 * session here: this module is part of the public pages' first load, which carries neither the session nor
 * the permissions (product.md §2.7).
 */
let viewer: Audience = 'member';

/** The member area's viewer: staff read the staff-only sections' table too. */
export function setPhraseViewer(audience: Audience): void {
  viewer = audience;
}

function add(packed: string): void {
  if (added.has(packed)) return;
  added.add(packed);
  for (const [hash, breaks] of unpackPhrases(packed)) breaksByHash.set(hash, breaks);
  for (const listener of listeners) listener();
}

/** A text's breaks, when a loaded table has them and they fit it. */
function breaksOf(text: string): readonly number[] | undefined {
  if (breaksByHash.size === 0) return undefined;
  const breaks = breaksByHash.get(hashText(text));
  return breaks && breaks.every((at) => at > 0 && at < text.length) ? breaks : undefined;
}

/** Loads the tables an audience's screens use (staff see the members' texts too); once each. */
export function loadPhraseBreaks(audience: Audience): Promise<void> {
  let load = loads.get(audience);
  if (!load) {
    const modules =
      audience === 'staff'
        ? [import('./phrases-member'), import('./phrases-staff')]
        : [import('./phrases-member')];
    load = Promise.all(modules).then((loaded) => loaded.forEach((module) => add(module.PACKED_PHRASES)));
    loads.set(audience, load);
  }
  return load;
}

/**
 * Asks for an audience's tables without waiting for them (a talk's prefetch does so, so that its first drawing
 * has its texts' breaks instead of drawing them again once a table arrives). A failed load is forgotten, and
 * the next text that misses its breaks asks again.
 */
export function preloadPhraseBreaks(audience: Audience): void {
  loadPhraseBreaks(audience).catch(() => loads.delete(audience));
}

/** Whether an audience's tables have been asked for (and not failed). */
export const phraseBreaksAsked = (audience: Audience): boolean => loads.has(audience);

const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => listeners.delete(listener);
};

/** Where `text` (a catalogue text) may break; asks for the viewer's table the first time it is missing. */
export function usePhraseBreaks(text: string): readonly number[] | undefined {
  // Prerendered and hydrated without breaks (no table is loaded then); they come with the table.
  const breaks = useSyncExternalStore(
    subscribe,
    () => breaksOf(text),
    () => undefined,
  );
  useEffect(() => {
    if (!breaks) preloadPhraseBreaks(viewer);
  }, [breaks]);
  return breaks;
}
