import { readdirSync, readlinkSync } from 'node:fs';
import { readlink } from 'node:fs/promises';
import { setPriority } from 'node:os';

/*
 * Bulk work yields the processor to messages (product.md §15.7 item 5, decision 010). Decoding pictures
 * (sharp, on libuv's thread pool) and reading frames of pictures (realtime/frame-reader-worker.ts) ran at
 * the event loop's priority: on two cores, with the garbage collector's helpers beside them, the event loop
 * waited 20–40 ms of every 50 for a core at a flood's start. At the lowest priority they only use what the
 * event loop and the database leave. So do V8's own helper threads: they ran the collector's parallel work
 * for every isolate (the frame reader's too) beside the event loop, at its priority. Linux keeps a priority
 * per thread, so only these threads are lowered; elsewhere (no /proc/thread-self) nothing changes.
 */

/** The niceness of bulk work: the lowest priority, so it runs when nothing else wants the core. */
export const BACKGROUND_NICE = 19;

/** The thread id in a /proc/thread-self link ("<pid>/task/<tid>"), or null. */
function threadIdIn(link: string): number | null {
  const match = /\/task\/(\d+)$/.exec(link);
  return match ? Number(match[1]) : null;
}

/** Lowers the calling thread (a worker thread doing bulk work) to BACKGROUND_NICE; false where it cannot. */
export function lowerThisThread(): boolean {
  try {
    const tid = threadIdIn(readlinkSync('/proc/thread-self'));
    if (tid === null) return false;
    setPriority(tid, BACKGROUND_NICE);
    return true;
  } catch {
    return false;
  }
}

/** libuv's thread pool size: UV_THREADPOOL_SIZE, else its default of 4. */
export function threadPoolSize(env: NodeJS.ProcessEnv = process.env): number {
  const size = Number(env.UV_THREADPOOL_SIZE);
  return Number.isInteger(size) && size > 0 ? Math.min(size, 1024) : 4;
}

/**
 * Lowers every thread of libuv's pool to BACKGROUND_NICE, where pictures are decoded (and files read, and
 * passwords hashed: under a full processor those wait too, never the messages). A read of
 * /proc/thread-self done by the pool names the pool thread that did it; reads are sent until every thread
 * has answered (or a few hundred went unanswered by some). Resolves with the ids of the threads lowered.
 */
export async function lowerThreadPool(size = threadPoolSize()): Promise<number[]> {
  const found = new Set<number>();
  for (let round = 0; round < 50 && found.size < size; round += 1) {
    const links = await Promise.all(
      Array.from({ length: size * 4 }, () => readlink('/proc/thread-self').catch(() => '')),
    );
    for (const link of links) {
      const tid = threadIdIn(link);
      if (tid !== null) found.add(tid);
    }
    if (found.size === 0) return []; // no /proc/thread-self: not Linux
  }
  const lowered: number[] = [];
  for (const tid of found) {
    try {
      setPriority(tid, BACKGROUND_NICE);
      lowered.push(tid);
    } catch {
      // the thread is gone; nothing to lower
    }
  }
  return lowered;
}

/**
 * Lowers every thread of the process but the calling one to BACKGROUND_NICE. Called at start, before any
 * worker thread is started (the database's must not be lowered), the others are Node's and V8's: the
 * platform threads that run the garbage collector's parallel and concurrent work and optimizing compiles,
 * and libuv's pool once lowerThreadPool has started it. The event loop then no longer waits for a core
 * while they collect a frame reader's megabytes; its own collections wait for them only where they share a
 * core with other bulk work. Threads started later by the calling thread keep its priority. Returns how
 * many were lowered.
 */
export function lowerOtherThreads(): number {
  let self: number | null;
  let threads: number[];
  try {
    self = threadIdIn(readlinkSync('/proc/thread-self'));
    threads = readdirSync('/proc/self/task').map(Number);
  } catch {
    return 0; // not Linux
  }
  let lowered = 0;
  for (const tid of threads) {
    if (tid === self) continue;
    try {
      setPriority(tid, BACKGROUND_NICE);
      lowered += 1;
    } catch {
      // the thread is gone; nothing to lower
    }
  }
  return lowered;
}
