import { performance } from 'node:perf_hooks';
import { closeSocket, openSocket, textFrame, type FloodTarget } from './flood.js';

/*
 * How long messages take from one member's socket to the staff socket while the server is under load
 * (product.md §15.7 item 5): flood.ts makes the load, `npm run bench` (bench/flood.ts) reports the figures.
 */

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
}

export interface DeliveryTimes {
  p50: number;
  p99: number;
  count: number;
  /** The five slowest deliveries: seconds after timing began that the message was sent, and its delivery ms. */
  slowest: { at: number; ms: number }[];
  /** Every delivery's ms, in order. */
  latencies: number[];
}

/** The deliveries of several talkers timed over the same while, as one figure. */
export function pooled(times: DeliveryTimes[]): DeliveryTimes {
  const latencies = times.flatMap((each) => each.latencies).sort((a, b) => a - b);
  return {
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    count: latencies.length,
    slowest: times
      .flatMap((each) => each.slowest)
      .sort((a, b) => b.ms - a.ms)
      .slice(0, 5),
    latencies,
  };
}

/**
 * The talker sends `rate` messages a second until `until` resolves (at least `minimum`); each is timed
 * from sending to its arrival at the staff socket.
 */
export async function timeDelivery(
  target: FloodTarget,
  rate: number,
  until: Promise<unknown>,
  minimum = 20,
): Promise<DeliveryTimes> {
  const sentAt = new Map<string, number>();
  const latencies: number[] = [];
  const began = performance.now();
  const slowest: { at: number; ms: number }[] = [];
  const staff = await openSocket(target, target.staff.ssid, (frame) => {
    const started = sentAt.get(String(frame.message));
    if (frame.type !== 'message' || started === undefined) return;
    const ms = performance.now() - started;
    latencies.push(ms);
    slowest.push({ at: (started - began) / 1000, ms });
    slowest.sort((a, b) => b.ms - a.ms).splice(5);
  });
  const talker = await openSocket(target, target.talker.ssid);
  if (typeof staff === 'number' || typeof talker === 'number') throw new Error('could not connect');
  let stopped = false;
  void until.then(() => (stopped = true));
  let sent = 0;
  while (!stopped || sent < minimum) {
    // Each talker's own words, so that talkers timed at once are told apart at the staff socket.
    const message = `時計 ${target.talker.desk}-${sent}`;
    sentAt.set(message, performance.now());
    talker.send(textFrame(target.talker.desk, message));
    sent += 1;
    await new Promise((resolve) => setTimeout(resolve, 1000 / rate));
  }
  const deadline = performance.now() + 30_000;
  while (latencies.length < sent && performance.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  await Promise.all([closeSocket(staff), closeSocket(talker)]);
  latencies.sort((a, b) => a - b);
  return {
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    count: latencies.length,
    slowest,
    latencies,
  };
}
