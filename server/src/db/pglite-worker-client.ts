import type { Worker } from 'node:worker_threads';
import type { QueryOptions, Results } from '@electric-sql/pglite';
import { startWorker } from '../lib/worker-thread.js';
import { metrics } from '../lib/metrics.js';
import type { Reply, Request, SerializedError, WorkerOptions } from './pglite-worker-protocol.js';

type RequestBody = Request extends infer R ? (R extends Request ? Omit<R, 'id'> : never) : never;

interface Pending {
  resolve(value: unknown): void;
  reject(error: Error): void;
}

/** The part of PGlite's Transaction that drizzle-orm/pglite uses. */
export interface WorkerTransaction {
  query<T>(sql: string, params?: unknown[], options?: QueryOptions): Promise<Results<T>>;
  exec(sql: string): Promise<Results[]>;
}

function deserializeError(serialized: SerializedError): Error {
  const error = new Error(serialized.message);
  error.name = serialized.name;
  if (serialized.stack) error.stack = serialized.stack;
  return Object.assign(error, serialized.fields);
}

// drizzle passes identity parsers ("leave timestamps as text"); functions cannot cross threads, so only
// their type ids go, and anything but an identity parser is refused rather than silently dropped.
const rawTypesOf = new WeakMap<object, number[]>();
function rawTypes(parsers: QueryOptions['parsers']): number[] | undefined {
  if (!parsers) return undefined;
  let types = rawTypesOf.get(parsers);
  if (!types) {
    types = Object.entries(parsers).map(([type, parse]) => {
      if (parse('probe', Number(type)) !== 'probe') {
        throw new Error(`PGlite worker: only identity parsers are supported (type ${type})`);
      }
      return Number(type);
    });
    rawTypesOf.set(parsers, types);
  }
  return types;
}

function queryRequest(tx: number | null, sql: string, params: unknown[] = [], options?: QueryOptions) {
  if (options?.serializers || options?.blob || options?.onNotice) {
    throw new Error('PGlite worker: serializers, blob and onNotice are not supported');
  }
  return {
    op: 'query',
    tx,
    sql,
    params,
    rowMode: options?.rowMode,
    rawTypes: rawTypes(options?.parsers),
    paramTypes: options?.paramTypes,
  } as const;
}

function startPgliteWorker(options: WorkerOptions): Worker {
  return startWorker(import.meta.url, 'pglite-worker', options);
}

/**
 * Stands in for a PGlite client (as far as drizzle-orm/pglite uses one) while the real PGlite runs in a
 * worker thread, so query execution does not block the main thread's event loop.
 */
export class PgliteWorkerClient {
  readonly #worker: Worker;
  readonly #pending = new Map<number, Pending>();
  #nextId = 1;
  #stopped: Error | undefined;

  private constructor(worker: Worker) {
    this.#worker = worker;
    worker.on('message', (reply: Reply) => this.#settle(reply));
    worker.on('error', (error) => this.#stop(new Error('PGlite worker failed', { cause: error })));
    worker.on('exit', (code) => this.#stop(new Error(`PGlite worker exited (code ${code})`)));
  }

  /** Starts the worker and resolves once PGlite in it is ready. */
  static async open(dataDir?: string): Promise<PgliteWorkerClient> {
    const worker = startPgliteWorker({ dataDir });
    const client = new PgliteWorkerClient(worker);
    const ready = new Promise<unknown>((resolve, reject) => client.#pending.set(0, { resolve, reject }));
    try {
      await ready;
    } catch (error) {
      await worker.terminate();
      throw error;
    }
    // Referenced only while a request is out, so a forgotten handle does not keep the process alive.
    worker.unref();
    return client;
  }

  #settle(reply: Reply) {
    const pending = this.#pending.get(reply.id);
    if (!pending) return;
    this.#pending.delete(reply.id);
    if (reply.id !== 0) metrics.queue('database', -1);
    if (this.#pending.size === 0) this.#worker.unref();
    if (reply.ok) pending.resolve(reply.value);
    else pending.reject(deserializeError(reply.error));
  }

  #stop(error: Error) {
    this.#stopped ??= error;
    for (const pending of this.#pending.values()) pending.reject(this.#stopped);
    metrics.queue('database', -[...this.#pending.keys()].filter((id) => id !== 0).length);
    this.#pending.clear();
  }

  #call<T>(body: RequestBody): Promise<T> {
    if (this.#stopped) return Promise.reject(this.#stopped);
    const id = this.#nextId++;
    return new Promise<T>((resolve, reject) => {
      // Throws (DataCloneError) for a parameter that cannot cross threads; the promise rejects with it.
      this.#worker.postMessage({ ...body, id });
      if (this.#pending.size === 0) this.#worker.ref();
      this.#pending.set(id, { resolve: resolve as (value: unknown) => void, reject });
      metrics.queue('database', 1);
    });
  }

  query<T>(sql: string, params?: unknown[], options?: QueryOptions): Promise<Results<T>> {
    return this.#runQuery(null, sql, params, options);
  }

  exec(sql: string): Promise<Results[]> {
    return this.#call({ op: 'exec', tx: null, sql });
  }

  #runQuery<T>(tx: number | null, sql: string, params?: unknown[], options?: QueryOptions) {
    try {
      return this.#call<Results<T>>(queryRequest(tx, sql, params, options));
    } catch (error) {
      return Promise.reject(error as Error);
    }
  }

  /** Commits when the callback resolves, rolls back when it throws; other queries wait meanwhile, as in PGlite. */
  async transaction<T>(callback: (tx: WorkerTransaction) => Promise<T>): Promise<T> {
    const id = await this.#call<number>({ op: 'begin' });
    let closed = false;
    const guard = () => {
      if (closed) throw new Error('Transaction is closed');
    };
    const tx: WorkerTransaction = {
      query: async (sql, params, options) => {
        guard();
        return this.#runQuery(id, sql, params, options);
      },
      exec: async (sql) => {
        guard();
        return this.#call({ op: 'exec', tx: id, sql });
      },
    };
    let result: T;
    try {
      result = await callback(tx);
    } catch (error) {
      closed = true;
      await this.#call({ op: 'end', tx: id, commit: false }).catch(() => {});
      throw error;
    }
    closed = true;
    await this.#call({ op: 'end', tx: id, commit: true });
    return result;
  }

  async close(): Promise<void> {
    if (this.#stopped) return;
    await this.#call({ op: 'close' });
    this.#stopped = new Error('PGlite worker is closed');
    await this.#worker.terminate();
  }
}
