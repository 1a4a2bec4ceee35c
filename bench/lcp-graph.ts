// Where a page's simulated LCP went (BENCH_LIGHTHOUSE_GRAPH=1): Lighthouse's Lantern model of the run, as the
// requests and main-thread tasks it simulated before the LCP, each with its simulated start and end. Lighthouse
// takes the LCP as the mean of two such graphs (an optimistic and a pessimistic one); the pessimistic one, which
// holds every request that ended before the LCP in the trace, is printed: what ends last is what the LCP waits on.
import type { RunnerResult } from 'lighthouse';
import { LanternLargestContentfulPaint } from 'lighthouse/core/computed/metrics/lantern-largest-contentful-paint.js';

/** A Lantern node, as far as this print reads it. */
type GraphNode =
  { type: 'network'; request: { url: string; transferSize: number } } | { type: 'cpu'; duration: number };
type Timing = { startTime: number; endTime: number };
type Estimate = { timeInMs: number; nodeTimings: Map<GraphNode, Timing> };

/** Tasks shorter than this (simulated ms) are left out of the print. */
const SHORT_TASK_MS = 20;

export async function printLcpGraph(name: string, result: RunnerResult): Promise<void> {
  const { lhr, artifacts } = result;
  const data = {
    trace: artifacts.Trace,
    devtoolsLog: artifacts.DevtoolsLog,
    gatherContext: artifacts.GatherContext,
    settings: lhr.configSettings,
    URL: artifacts.URL,
    SourceMaps: [],
    simulator: null,
  };
  const context = { computedCache: new Map(), settings: lhr.configSettings };
  const lcp = (await LanternLargestContentfulPaint.request(
    data as unknown as Parameters<typeof LanternLargestContentfulPaint.request>[0],
    context as unknown as Parameters<typeof LanternLargestContentfulPaint.request>[1],
  )) as unknown as { optimisticEstimate: Estimate; pessimisticEstimate: Estimate };
  const { optimisticEstimate: optimistic, pessimisticEstimate: pessimistic } = lcp;
  console.log(
    `\n${name}: simulated LCP ${Math.round(optimistic.timeInMs)} ms optimistic, ${Math.round(pessimistic.timeInMs)} ms pessimistic; the pessimistic graph:`,
  );
  const origin = new URL(lhr.finalDisplayedUrl).origin;
  const rows = [...pessimistic.nodeTimings.entries()].sort(([, a], [, b]) => a.startTime - b.startTime);
  for (const [node, { startTime, endTime }] of rows) {
    if (node.type === 'cpu' && endTime - startTime < SHORT_TASK_MS) continue;
    const what =
      node.type === 'network'
        ? `${node.request.url.replace(origin, '')} (${node.request.transferSize} B)`
        : `main thread, ${Math.round(node.duration / 1000)} ms in the trace`;
    console.log(`  ${ms(startTime)} → ${ms(endTime)}  ${what}`);
  }
}

const ms = (value: number) => `${Math.round(value).toString().padStart(5)} ms`;
