// Where a page's main thread spent its time, from a Chromium trace and a CPU profile of the same open
// (bench/talk-open.ts, BENCH_TALK_PROFILE): the long tasks and what ran in them, and the functions with the most
// time of their own.

/** A Chromium trace event, as much of it as is read here. */
export type TraceEvent = {
  name: string;
  ph: string;
  ts: number;
  dur?: number;
  pid: number;
  tid: number;
  args?: { name?: string; beginData?: { stackTrace?: unknown[] }; data?: { stackTrace?: unknown[] } };
};

type ProfileNode = {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
};
export type Profile = { nodes: ProfileNode[]; samples: number[]; timeDeltas: number[] };

/** The functions with the most time of their own in `profile` (ms, at the slowdown), as `name file:line`. */
export function selfTimes(profile: Profile, top = 25): string[] {
  const byNode = new Map(profile.nodes.map((node) => [node.id, node]));
  const self = new Map<string, number>();
  profile.samples.forEach((id, at) => {
    const { functionName, url, lineNumber } = byNode.get(id)!.callFrame;
    const key = `${functionName || '(anonymous)'} ${url.replace(/^.*\//, '')}:${lineNumber + 1}`;
    self.set(key, (self.get(key) ?? 0) + (profile.timeDeltas[at + 1] ?? 0) / 1000);
  });
  return [...self]
    .sort((a, b) => b[1] - a[1])
    .slice(0, top)
    .map(([key, ms]) => `${ms.toFixed(1).padStart(7)} ms  ${key}`);
}

/** Each long task (`tasks`, trace events of the main thread `onMain`): when, how long, and its biggest events. */
export function longTaskLines(onMain: TraceEvent[], tasks: TraceEvent[]): string[] {
  const start = Math.min(...onMain.filter((e) => e.ts > 0).map((e) => e.ts));
  return tasks.map((task) => {
    const inside = onMain.filter(
      (e) => e.ph === 'X' && e !== task && e.ts >= task.ts && e.ts + (e.dur ?? 0) <= task.ts + task.dur!,
    );
    const biggest = inside
      .sort((a, b) => (b.dur ?? 0) - (a.dur ?? 0))
      .slice(0, 4)
      .map((e) => `${e.name} ${((e.dur ?? 0) / 1000).toFixed(0)}`);
    return `long task at ${((task.ts - start) / 1000).toFixed(0)} ms: ${(task.dur! / 1000).toFixed(0)} ms (${biggest.join(', ')})`;
  });
}
