import type { Worker } from 'node:worker_threads';
import { IMAGE_DATA_URL_MAX, IMAGE_DATA_URL_PATTERN } from '@enishi/contract';
import type { RawData } from 'ws';
import { startWorker } from '../lib/worker-thread.js';
import { ownBuffer, type FrameReply, type FrameRequest, type PictureRule } from './frame-reader-protocol.js';

/** A worker idle this long is stopped, so the memory of the frames it read goes back to the system. */
const IDLE_MS = 5000;

const PICTURE_RULE: PictureRule = {
  maxLength: IMAGE_DATA_URL_MAX,
  pattern: { source: IMAGE_DATA_URL_PATTERN.source, flags: IMAGE_DATA_URL_PATTERN.flags },
};

interface Pending {
  resolve(reply: FrameReply): void;
  reject(error: Error): void;
}

/** The bytes of a frame as an ArrayBuffer that can be handed to another thread without a copy. */
function transferable(data: RawData): ArrayBuffer {
  if (data instanceof ArrayBuffer) return data;
  return ownBuffer(Array.isArray(data) ? Buffer.concat(data) : data);
}

/**
 * Reads frames of pictures in a worker thread (product.md §15.7 item 5). Turning 27 MB into a string, checking
 * its depth and parsing it took the event loop for half a second each, and every other member's messages
 * waited behind it; here it takes one core while the event loop goes on. The pictures come back checked and
 * decoded, as bytes handed over without a copy: copying their data URLs back and checking them took the event
 * loop another 100 ms a frame. One worker, started on the first large frame and stopped when idle; frames are
 * read in the order they are given.
 */
export class FrameReader {
  #worker: Worker | undefined;
  readonly #pending = new Map<number, Pending>();
  #nextId = 1;
  #idle: NodeJS.Timeout | undefined;

  /** Reads `data`; the caller must not use it afterwards (its memory moves to the worker). */
  read(data: RawData, isBinary: boolean): Promise<FrameReply> {
    clearTimeout(this.#idle);
    const worker = this.#running();
    const request: FrameRequest = { id: this.#nextId++, bytes: transferable(data), isBinary };
    return new Promise<FrameReply>((resolve, reject) => {
      this.#pending.set(request.id, { resolve, reject });
      worker.postMessage(request, [request.bytes]);
    });
  }

  /** Stops the worker; frames still being read are refused. */
  async close(): Promise<void> {
    clearTimeout(this.#idle);
    const worker = this.#worker;
    this.#worker = undefined;
    this.#fail(new Error('frame reader stopped'));
    await worker?.terminate();
  }

  #running(): Worker {
    if (this.#worker) return this.#worker;
    const worker = startWorker(import.meta.url, 'frame-reader-worker', PICTURE_RULE);
    // Never what keeps the process alive: the sockets whose frames it reads do that.
    worker.unref();
    worker.on('message', (reply: FrameReply) => {
      const pending = this.#pending.get(reply.id);
      this.#pending.delete(reply.id);
      pending?.resolve(reply);
      if (this.#pending.size === 0) this.#stopWhenIdle();
    });
    worker.on('error', (error) => this.#lost(worker, error));
    worker.on('exit', (code) => this.#lost(worker, new Error(`frame reader exited (code ${code})`)));
    this.#worker = worker;
    return worker;
  }

  #stopWhenIdle(): void {
    clearTimeout(this.#idle);
    this.#idle = setTimeout(() => void this.close(), IDLE_MS);
    this.#idle.unref();
  }

  /** The worker died on its own: what it was reading is refused, and the next frame starts a new one. */
  #lost(worker: Worker, error: Error): void {
    if (this.#worker !== worker) return;
    this.#worker = undefined;
    this.#fail(error);
  }

  #fail(error: Error): void {
    for (const pending of this.#pending.values()) pending.reject(error);
    this.#pending.clear();
  }
}
