// Worker thread that owns the embedded PGlite, so its (synchronous, WASM) query work stays off the
// main thread's event loop. Started by pglite-worker-client.ts; speaks the protocol in pglite-worker-protocol.ts.
import { parentPort, workerData } from 'node:worker_threads';
import { PGlite, type ParserOptions, type Transaction } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { openDurablePglite } from './pglite-durable.js';
import type { Reply, Request, SerializedError, WorkerOptions } from './pglite-worker-protocol.js';

function serializeError(error: unknown): SerializedError {
  if (!(error instanceof Error))
    return { name: 'Error', message: String(error), stack: undefined, fields: {} };
  const fields: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(error)) {
    if (value === undefined || typeof value === 'function') continue;
    try {
      // Skips what cannot cross threads, e.g. PGlite's queryOptions with parser functions.
      fields[key] = structuredClone(value);
    } catch {
      /* dropped */
    }
  }
  return { name: error.name, message: error.message, stack: error.stack, fields };
}

const keepText = (value: string) => value;
const parsersByKey = new Map<string, ParserOptions>();
function rawParsers(types: number[]): ParserOptions {
  const key = types.join(',');
  let parsers = parsersByKey.get(key);
  if (!parsers) {
    parsers = Object.fromEntries(types.map((type) => [type, keepText]));
    parsersByKey.set(key, parsers);
  }
  return parsers;
}

interface OpenTransaction {
  tx: Transaction;
  decide(commit: boolean): void;
  done: Promise<void>;
}

const ROLLBACK = Symbol('rollback');

/** The transactions the main thread has open on this worker's PGlite, by the numbers it knows them by. */
class OpenTransactions {
  private readonly open = new Map<number, OpenTransaction>();
  private nextTx = 1;

  constructor(private readonly pg: PGlite) {}

  /** Where a statement runs: the open transaction `tx`, or PGlite itself outside one. */
  runner(tx: number | null) {
    if (tx === null) return this.pg;
    const open = this.open.get(tx);
    if (!open) throw new Error('Transaction is closed');
    return open.tx;
  }

  // Holds a PGlite transaction open until the main thread says how it ends; other work waits on PGlite's lock.
  async begin(): Promise<number> {
    const id = this.nextTx++;
    let decide!: (commit: boolean) => void;
    const decided = new Promise<boolean>((resolve) => (decide = resolve));
    let entered!: () => void;
    const started = new Promise<void>((resolve) => (entered = resolve));
    const done = this.pg
      .transaction(async (tx) => {
        this.open.set(id, { tx, decide, done });
        entered();
        if (!(await decided)) throw ROLLBACK;
      })
      .catch((error: unknown) => {
        if (error !== ROLLBACK) throw error;
      });
    done.catch(() => {}); // awaited by `end`; this only keeps an early failure from being "unhandled"
    await Promise.race([started, done]);
    return id;
  }

  async end(tx: number, commit: boolean): Promise<void> {
    const open = this.open.get(tx);
    if (!open) throw new Error('Transaction is closed');
    this.open.delete(tx);
    open.decide(commit);
    await open.done;
  }
}

async function start(port: NonNullable<typeof parentPort>, options: WorkerOptions) {
  const post = (reply: Reply) => {
    try {
      port.postMessage(reply);
    } catch (error) {
      // A result that cannot be cloned must still answer the caller.
      port.postMessage({ id: reply.id, ok: false, error: serializeError(error) } satisfies Reply);
    }
  };

  let pg: PGlite;
  try {
    pg = options.dataDir ? await openDurablePglite(options.dataDir) : new PGlite({ extensions: { pg_trgm } });
    await pg.waitReady;
  } catch (error) {
    post({ id: 0, ok: false, error: serializeError(error) });
    return;
  }

  const transactions = new OpenTransactions(pg);
  const handle = async (request: Request): Promise<unknown> => {
    switch (request.op) {
      case 'query':
        return transactions.runner(request.tx).query(request.sql, request.params, {
          rowMode: request.rowMode,
          ...(request.rawTypes ? { parsers: rawParsers(request.rawTypes) } : {}),
          ...(request.paramTypes ? { paramTypes: request.paramTypes } : {}),
        });
      case 'exec':
        return transactions.runner(request.tx).exec(request.sql);
      case 'begin':
        return transactions.begin();
      case 'end':
        return transactions.end(request.tx, request.commit);
      case 'close':
        await pg.close();
        setImmediate(() => port.close());
        return undefined;
    }
  };

  port.on('message', (request: Request) => {
    handle(request).then(
      (value) => post({ id: request.id, ok: true, value }),
      (error: unknown) => post({ id: request.id, ok: false, error: serializeError(error) }),
    );
  });
  post({ id: 0, ok: true, value: undefined });
}

if (parentPort) void start(parentPort, workerData as WorkerOptions);
