import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { TEST_ORIGIN } from './socket.js';

const CHILD = fileURLToPath(new URL('./frame-bomb-child.mjs', import.meta.url));

/**
 * `sockets` clients, from a process of their own, each sending `depth`-deep nested JSON (2 x depth bytes) as its
 * first chat frame. A real attacker is elsewhere: from the test's own process, masking 240 MB of frames held the
 * loop that serves the server under test as well. `sent` resolves once every frame is on its way; `closed`
 * once the server has closed every socket (the process then exits 0).
 */
export function frameBomb(
  baseUrl: string,
  { sockets, depth }: { sockets: number; depth: number },
): { sent: Promise<void>; closed: Promise<void> } {
  const url = `${baseUrl.replace(/^http/, 'ws')}/ws/chat`;
  const child = spawn(process.execPath, [CHILD, url, TEST_ORIGIN, String(sockets), String(depth)], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const sent = new Promise<void>((resolve, reject) => {
    createInterface({ input: child.stdout }).once('line', () => resolve());
    child.once('exit', (code) => reject(new Error(`the attackers' process exited (${String(code)}) unsent`)));
  });
  const closed = new Promise<void>((resolve, reject) =>
    child.once('exit', (code) =>
      code === 0 ? resolve() : reject(new Error(`the attackers' process exited with ${String(code)}`)),
    ),
  );
  // Handled here too, so that a test failing before it waits for `closed` leaves no unhandled rejection.
  closed.catch(() => {});
  return { sent, closed };
}
