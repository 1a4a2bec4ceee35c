import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/**
 * Gives memory back after a burst of large frames (product.md §15.7 item 5). A frame of pictures is tens of
 * megabytes of buffer and string that are garbage once it is handled, but V8 collects only under its own
 * pressure, so a server that took a flood of them would keep its RSS high until much later. Once such
 * frames stop coming for a moment, one full collection returns it.
 *
 * The collector is reached the documented way (`--expose-gc`), turned on at run time so that no start
 * command needs the flag.
 */
export const collectGarbage: () => void = (() => {
  setFlagsFromString('--expose-gc');
  return runInNewContext('gc') as () => void;
})();

/** Large frames handled since the last collection before one is worth it. */
const WORTH_COLLECTING_BYTES = 64 * 1024 * 1024;
/** How long large frames must stop coming: during a flood, V8's own limits hold (the gateway bounds it). */
const QUIET_MS = 1000;

export class MemoryRelief {
  private pending = 0;
  private timer: NodeJS.Timeout | undefined;

  /** Frames smaller than `largeBytes` are the usual traffic and left to V8. */
  constructor(
    private readonly largeBytes: number,
    private readonly run: () => void = collectGarbage,
    private readonly quietMs = QUIET_MS,
  ) {}

  /** A frame of `bytes` has been handled and let go. */
  released(bytes: number): void {
    if (bytes < this.largeBytes) return;
    this.pending += bytes;
    if (this.pending < WORTH_COLLECTING_BYTES) return;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.pending = 0;
      this.run();
    }, this.quietMs);
    this.timer.unref();
  }

  stop(): void {
    clearTimeout(this.timer);
  }
}
