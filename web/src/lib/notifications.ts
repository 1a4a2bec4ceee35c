import { updateLocalState, useLocalState, type Counters } from './local-state';

export type { Counters };

export const useCounters = (): Counters => useLocalState((state) => state.counters);

export function setCounters(patch: Partial<Counters>): void {
  updateLocalState((state) => ({ ...state, counters: { ...state.counters, ...patch } }));
}
