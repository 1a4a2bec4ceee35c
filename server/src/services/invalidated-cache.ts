/*
 * What the session cache and the room list cache share: how an entry stops being believed. Each hears the
 * changes that concern it from every instance through the realtime fan-out, and nothing may leave an entry
 * stale for long, whatever is missed:
 * - an entry is believed for `ttlMs` at most (a row changed by hand or by a script, an instance killed
 *   between its commit and its publish);
 * - while the shared subscription is down (the fan-out's health), nothing is cached and what was is
 *   dropped, since changes published meanwhile never arrive;
 * - a read from the database that began before an invalidation is not stored after it (the generation).
 * A cache says which entries a change drops (`forget`) and how to drop them all (`clear`).
 */
export abstract class InvalidatedCache<Change> {
  private generation = 0;
  private trusted = true;

  constructor(protected readonly ttlMs: number) {}

  /** Whether anything is cached at all (a zero `ttlMs` turns the cache off). */
  get enabled(): boolean {
    return this.ttlMs > 0;
  }

  /** Taken before reading the database; a read is stored only if nothing was invalidated since. */
  mark(): number {
    return this.generation;
  }

  /** A committed change: the entries it concerns are read again. */
  hear(change: Change): void {
    this.generation += 1;
    this.forget(change);
  }

  /** The fan-out's health: while changes from other instances may be missed, nothing is believed. */
  setTrusted(trusted: boolean): void {
    this.generation += 1;
    this.trusted = trusted;
    this.clear();
  }

  /** Whether a read begun at `mark` may be stored now. */
  protected mayStore(mark: number): boolean {
    return this.trusted && mark === this.generation && this.enabled;
  }

  protected abstract forget(change: Change): void;

  protected abstract clear(): void;
}
