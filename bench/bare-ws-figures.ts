// The baselines of the chat socket: the bare `ws` server of bare-ws.ts, with the same club and load.
import { fork } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import { freePort } from '../server/src/test/process.js';
import { repoRoot } from './lib.js';
import { drive, stop, type Club } from './socket.js';

/** The bare ws server; with a database URL, storing each message with one durable insert first. */
export async function startBareWs(club: Club, databaseUrl?: string) {
  const port = await freePort();
  const inspectPort = await freePort();
  const child = fork(join(repoRoot, 'bench/bare-ws.ts'), {
    env: { ...process.env, PORT: String(port), DATABASE_URL: databaseUrl ?? '' },
    execArgv: ['--import', 'tsx', `--inspect=127.0.0.1:${inspectPort}`],
    stdio: ['ignore', 'ignore', 'ignore', 'ipc'],
  });
  await once(child, 'message');
  return {
    label: databaseUrl ? 'bare ws + one insert' : 'bare ws broadcast',
    wsUrl: `ws://127.0.0.1:${port}`,
    origin: 'http://127.0.0.1',
    inspectPort,
    // It takes any session; these say who is staff.
    club: {
      members: club.members.map((member) => ({ ...member, session: `member-${member.uid}` })),
      staff: club.staff.map((person) => ({ ...person, session: `staff-${person.uid}` })),
    },
    stop: () => stop(child),
  };
}

/** The bare ws server's figures under `load` (startBareWs). */
export async function bareWsFigures(
  club: Club,
  load: { rate: number; seconds: number },
  databaseUrl?: string,
) {
  const bare = await startBareWs(club, databaseUrl);
  try {
    return await drive(bare.label, bare.wsUrl, bare.origin, bare.inspectPort, bare.club, load);
  } finally {
    await bare.stop();
  }
}
