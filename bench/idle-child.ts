// The idle sockets of bench/idle.ts in a process of their own: idle members sit on phones of their own, so the
// load generator timing the other members must not carry 18,000 client sockets in its heap (its garbage
// collections would be timed as the server's). Reads `{ wsUrl, origin, sessions }` as JSON on stdin, opens
// them 100 at a time, prints `open <seconds>` and keeps them until stdin closes.
import { text } from 'node:stream/consumers';
import type WebSocket from 'ws';
import { connect } from './socket.js';

const { wsUrl, origin, sessions } = JSON.parse(await text(process.stdin)) as {
  wsUrl: string;
  origin: string;
  sessions: string[];
};
const start = performance.now();
const sockets: WebSocket[] = [];
for (let index = 0; index < sessions.length; index += 100) {
  const batch = sessions.slice(index, index + 100);
  sockets.push(...(await Promise.all(batch.map((session) => connect(wsUrl, origin, session, () => {})))));
}
process.stdout.write(`open ${((performance.now() - start) / 1000).toFixed(1)}\n`);
process.on('SIGTERM', () => {
  for (const socket of sockets) socket.terminate();
  process.exit(0);
});
