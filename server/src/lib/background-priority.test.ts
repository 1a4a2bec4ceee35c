import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { BACKGROUND_NICE, threadPoolSize } from './background-priority.js';

const linux = existsSync('/proc/thread-self');
const here = fileURLToPath(new URL('./background-priority.ts', import.meta.url));

// The pool is lowered in a process of its own: lowered here, it would stay lowered for the other tests.
// A thread's niceness is the 19th field of its stat (the 17th after the command name).
const POOL = `
import { readdirSync, readFileSync } from 'node:fs';
import { lowerThreadPool } from ${JSON.stringify(here)};
const niceness = (tid) => Number(readFileSync('/proc/self/task/' + tid + '/stat', 'utf8').split(') ')[1].split(' ')[16]);
const lowered = await lowerThreadPool();
const others = readdirSync('/proc/self/task').map(Number).filter((tid) => !lowered.includes(tid));
console.log(JSON.stringify({
  lowered: lowered.map(niceness),
  main: niceness(process.pid),
  othersLowered: others.filter((tid) => niceness(tid) !== 0).length,
}));
`;

// Every thread but the calling one is lowered; a worker thread started afterwards keeps the caller's priority.
const OTHERS = `
import { readdirSync, readFileSync } from 'node:fs';
import { Worker } from 'node:worker_threads';
import { lowerOtherThreads } from ${JSON.stringify(here)};
const niceness = (tid) => Number(readFileSync('/proc/self/task/' + tid + '/stat', 'utf8').split(') ')[1].split(' ')[16]);
const before = readdirSync('/proc/self/task').map(Number).filter((tid) => tid !== process.pid);
const lowered = lowerOtherThreads();
const worker = new Worker("import { parentPort } from 'node:worker_threads'; import { readlinkSync } from 'node:fs'; parentPort.postMessage(readlinkSync('/proc/thread-self'));", { eval: true });
const link = await new Promise((resolve) => worker.once('message', resolve));
const workerTid = Number(String(link).split('/').pop());
const result = {
  lowered: lowered === before.length && before.length > 0,
  others: [...new Set(before.map(niceness))],
  main: niceness(process.pid),
  worker: niceness(workerTid),
};
await worker.terminate();
console.log(JSON.stringify(result));
`;

describe('bulk work at background priority', () => {
  it.runIf(linux)('lowers every other thread there is, not the caller nor a worker started after', () => {
    const result = spawnSync(
      process.execPath,
      ['--conditions=source', '--import', 'tsx', '--input-type=module', '-e', OTHERS],
      { encoding: 'utf8' },
    );
    expect(result.status, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout.trim().split('\n').pop() ?? '{}')).toEqual({
      lowered: true,
      others: [BACKGROUND_NICE],
      main: 0,
      worker: 0,
    });
  });

  it.runIf(linux)('lowers every thread of libuv’s pool, and no other thread of the process', () => {
    const result = spawnSync(
      process.execPath,
      ['--conditions=source', '--import', 'tsx', '--input-type=module', '-e', POOL],
      { encoding: 'utf8', env: { ...process.env, UV_THREADPOOL_SIZE: '3' } },
    );
    expect(result.status, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout.trim().split('\n').pop() ?? '{}')).toEqual({
      lowered: [BACKGROUND_NICE, BACKGROUND_NICE, BACKGROUND_NICE],
      main: 0,
      othersLowered: 0,
    });
  });

  it('sizes the pool as libuv does', () => {
    expect(threadPoolSize({})).toBe(4);
    expect(threadPoolSize({ UV_THREADPOOL_SIZE: '8' })).toBe(8);
    expect(threadPoolSize({ UV_THREADPOOL_SIZE: 'many' })).toBe(4);
  });
});
