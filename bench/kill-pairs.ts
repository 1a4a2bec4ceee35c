// The kill bench's (message, staff reader) pairs (bench/kill.ts): how many reached the reader within 2 s of
// the sender's echo, and the misses by how late they came.

/** product.md §20: a committed message reaches every connected reader of its talk within this long. */
export const LIVE_MS = 2000;

/** Message-reader pairs: how many, how many within LIVE_MS, and the misses by how late they came. */
export class Misses {
  private pairs = 0;
  private live = 0;
  /** Upper bounds of the lateness buckets, in ms; the last counts what never came. */
  private static readonly bounds = [3000, 5000, 10_000, Infinity];
  private readonly late = [0, 0, 0, 0, 0];
  private reloaded = 0;
  private worst = 0;

  /** `reloaded`: never on the socket, but among the ids a `reload` told the reader to read over HTTP. */
  add(lateMs: number | null, reloaded = false): void {
    this.pairs += 1;
    if (lateMs !== null && lateMs <= LIVE_MS) {
      this.live += 1;
      return;
    }
    if (reloaded) {
      this.reloaded += 1;
      return;
    }
    if (lateMs === null) {
      this.late[Misses.bounds.length]! += 1;
      return;
    }
    this.worst = Math.max(this.worst, lateMs);
    this.late[Misses.bounds.findIndex((bound) => lateMs <= bound)]! += 1;
  }

  summary(): string {
    const share = ((100 * this.live) / Math.max(this.pairs, 1)).toFixed(2);
    return `${share} % (${this.live} of ${this.pairs} pairs)`;
  }

  lateness(): string {
    const [to3, to5, to10, more, never] = this.late;
    const misses = this.pairs - this.live;
    if (misses === 0) return 'none';
    return (
      `${misses}: ≤3 s ${to3}, ≤5 s ${to5}, ≤10 s ${to10}, >10 s ${more}, reloaded ${this.reloaded}, ` +
      `never ${never}` +
      (this.worst > 0 ? ` (latest ${(this.worst / 1000).toFixed(1)} s)` : '')
    );
  }
}
