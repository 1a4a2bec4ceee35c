/** The 99th percentile of `count` /healthz round trips to `base`, one after the other, in milliseconds. */
export async function healthzP99(base: string, count: number): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < count; i += 1) {
    const started = performance.now();
    const response = await fetch(`${base}/healthz`);
    await response.arrayBuffer();
    if (response.status !== 200) throw new Error(`/healthz answered ${response.status}`);
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  return times[Math.ceil(times.length * 0.99) - 1] ?? Infinity;
}

/**
 * How slow /healthz may be under attack, from the same measure taken just before it: a server whose loop the
 * attack blocks answers in seconds, while a loaded 2-core machine (a build beside the tests) slows every
 * answer, the baseline's too. So the bound follows the baseline, with room for the scheduler.
 */
export function underAttackBound(baselineP99: number): number {
  return 100 + 3 * baselineP99;
}
