// `tsx e2e/lib/on-node.ts <major> <script> [args…]`: runs a Node script on the official `node` of that major
// release (node-releases.ts: fetched from npm once, then cached). `npm test` runs the server's API tests on
// the other releases the code supports this way (scripts/test.mjs).
import { spawn } from 'node:child_process';
import { cachedNode } from './node-releases.js';

const [major, ...args] = process.argv.slice(2);
if (!major || !/^\d+$/.test(major) || args.length === 0) {
  console.error('usage: tsx e2e/lib/on-node.ts <major> <script> [args…]');
  process.exit(2);
}
const node = cachedNode(Number(major));
const child = spawn(node, args, { stdio: 'inherit' });
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
