import { setFlagsFromString } from 'node:v8';

/** How much V8 lets the old generation grow past what was live after a full collection before the next. */
export const HEAP_GROWING_PERCENT = 100;

/**
 * Lets the old generation double before V8 collects it again (decision 010). V8 picks that growth from how
 * fast the program allocates against how fast it collects, and for a server that allocates little it picks
 * its least (1.1): with 28 MB live, the next full collection began after 3 MB more. Under a flood (sockets
 * opened and refused, frames read and let go) that made 18-25 full collections in 30 s, each 1-15 ms on the
 * event loop, most of them in its first second and where holds ended: where other members' slowest deliveries
 * fell. Doubling costs a few tens of megabytes at most. Set at run time, as `--expose-gc` is (memory-relief.ts),
 * so that no start command needs the flag; it holds for the process's workers too.
 */
export function letHeapGrow(): void {
  setFlagsFromString(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
}
