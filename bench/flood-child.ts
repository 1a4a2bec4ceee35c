// The flood of bench/flood.ts in a process of its own, so that the load generator's work (3.4 GB of frames
// to send) does not slow the clocks of the member being timed. Usage: tsx bench/flood-child.ts '<target JSON>'
import { flood, FULL_FLOOD, type FloodTarget } from '../server/src/test/flood.js';

const target = JSON.parse(process.argv[2] ?? '{}') as FloodTarget;
const seconds = Number(process.env.BENCH_FLOOD_SECONDS ?? 30);
const outcome = await flood(target, FULL_FLOOD, seconds);
process.stdout.write(`${JSON.stringify(outcome)}\n`);
process.exit(0);
