// Many chat sockets at once, for the nginx test: run inside the sandbox's network namespace as
// `node socket-crowd.mjs '<json>'`, it opens `count` chat sockets to `url` (wss; the site's self-signed
// certificate accepted), at most `atOnce` opening at a time, and prints one JSON line once all are open, one has
// failed or `seconds` have passed. It holds them until its stdin ends, then drops them all and exits.
// Input: { url: "wss://203.0.113.1/ws/chat", name: "enishi.test", count, atOnce, seconds }
// Output: { opened, failed, first?, ms }: how many opened, how many failed (refused, or closed while the others
// were opening), the first failure, and how long the opening took.
//
// A socket is a TLS connection whose upgrade got `101 Switching Protocols` from the instance through nginx; then it
// reads no more. It sends no session frame, so the instance closes it after 5 s (product.md §15.2), but that close
// frame is never read nor answered and the instance waits 30 s for the answer (ws's close timeout) before it drops
// the connection: each socket, both of nginx's connections, stays open 35 s, however long the others take.
import { randomBytes } from 'node:crypto';
import { connect, createSecureContext } from 'node:tls';

const { url, name, count, atOnce, seconds } = JSON.parse(process.argv[2] ?? '{}');
const { hostname, port, pathname } = new URL(url);
// Every handshake after the first resumes the first's TLS 1.2 session, with no key exchange: opening thousands
// costs this process and nginx a small part of full handshakes (the point is the connections, not TLS).
const secureContext = createSecureContext({ maxVersion: 'TLSv1.2' });
let session;
const sockets = [];
let opened = 0;
let failed = 0;
let first;
let reported = false;
const started = Date.now();

function report() {
  if (reported) return;
  reported = true;
  clearTimeout(timer);
  console.log(JSON.stringify({ opened, failed, first, ms: Date.now() - started }));
}

function fail(reason) {
  if (reported) return;
  failed += 1;
  first ??= reason;
  report();
}

/** Opens one socket; resolves once it is open or has failed. */
function openOne() {
  return new Promise((resolve) => {
    const upgrade = [
      `GET ${pathname} HTTP/1.1`,
      `Host: ${name}`,
      'Upgrade: websocket',
      'Connection: Upgrade',
      `Sec-WebSocket-Key: ${randomBytes(16).toString('base64')}`,
      'Sec-WebSocket-Version: 13',
      `Origin: https://${name}`,
    ];
    const options = { host: hostname, port: Number(port || 443), servername: name, secureContext, session };
    const socket = connect({ ...options, rejectUnauthorized: false }, () =>
      socket.write(`${upgrade.join('\r\n')}\r\n\r\n`),
    );
    sockets.push(socket);
    socket.once('session', (ticket) => (session ??= ticket));
    let head = '';
    const reading = (chunk) => {
      head += chunk;
      if (!head.includes('\r\n\r\n')) return;
      socket.off('data', reading);
      socket.pause();
      if (head.startsWith('HTTP/1.1 101 ')) opened += 1;
      else fail(head.slice(0, head.indexOf('\r\n')));
      resolve();
    };
    socket.on('data', reading);
    socket.on('error', (error) => {
      fail(error.message);
      resolve();
    });
    socket.on('close', () => {
      fail('closed');
      resolve();
    });
  });
}

const timer = setTimeout(() => fail(`not all open within ${seconds} s`), seconds * 1000);
process.stdin.resume();
process.stdin.once('end', () => {
  report();
  for (const socket of sockets) socket.destroy();
  process.exit(0);
});

// The first alone, so that its TLS session is there for the others to resume.
await openOne();
let next = 1;
async function opener() {
  while (!reported && next < count) {
    next += 1;
    await openOne();
  }
}
await Promise.all(Array.from({ length: atOnce }, opener));
report();
