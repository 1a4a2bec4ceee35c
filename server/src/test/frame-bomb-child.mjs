// The attackers of `frameBomb` (frame-bomb.ts), in a process of their own: argv url, origin, sockets, depth.
// Prints `sent` once every socket is open and its frame handed to the socket, and exits once the server has
// closed them all.
import WebSocket from 'ws';

const [url, origin, sockets, depth] = process.argv.slice(2);
const bomb = Buffer.from('['.repeat(Number(depth)) + ']'.repeat(Number(depth)));
const open = await Promise.all(
  Array.from(
    { length: Number(sockets) },
    () =>
      new Promise((resolve, reject) => {
        const ws = new WebSocket(url, { origin, perMessageDeflate: false });
        ws.once('open', () => resolve(ws));
        ws.once('error', reject);
      }),
  ),
);
const closed = open.map((ws) => {
  // The server may close while the frame is still going out: a reset is what the test expects, not a failure.
  ws.on('error', () => {});
  return new Promise((resolve) => ws.once('close', resolve));
});
for (const ws of open) ws.send(bomb, () => {});
process.stdout.write('sent\n');
await Promise.all(closed);
