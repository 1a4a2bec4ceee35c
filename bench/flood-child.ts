// The flood of bench/flood.ts in a process of its own, so that the load generator's work (3.4 GB of frames
// to send) does not slow the clocks of the member being timed. Usage: tsx bench/flood-child.ts '<target JSON>'
import { flood, FULL_FLOOD, type FloodTarget } from '../server/src/test/flood.js';

const target = JSON.parse(process.argv[2] ?? '{}') as FloodTarget;
const { refusedSockets } = await flood(target, FULL_FLOOD);
process.stdout.write(`${JSON.stringify({ refusedSockets })}\n`);
process.exit(0);
