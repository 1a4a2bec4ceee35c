// Messages between the main thread (pglite-worker-client.ts) and the thread that owns PGlite (pglite-worker.ts).

export interface WorkerOptions {
  /** Folder of the database; omitted: in memory. */
  dataDir: string | undefined;
}

/** `tx` names an open transaction (from `begin`); null runs outside any, waiting for an open one to end. */
export type Request =
  | {
      id: number;
      op: 'query';
      tx: number | null;
      sql: string;
      params: unknown[];
      rowMode: 'array' | 'object' | undefined;
      /** Types to hand back as the text PostgreSQL sent, as drizzle asks for with identity parsers. */
      rawTypes: number[] | undefined;
      paramTypes: number[] | undefined;
    }
  | { id: number; op: 'exec'; tx: number | null; sql: string }
  | { id: number; op: 'begin' }
  | { id: number; op: 'end'; tx: number; commit: boolean }
  | { id: number; op: 'close' };

/** An Error flattened for postMessage: its own fields (code, constraint, detail, ...) kept as data. */
export interface SerializedError {
  name: string;
  message: string;
  stack: string | undefined;
  fields: Record<string, unknown>;
}

/** Id 0 answers the start-up: ok once PGlite is ready. */
export type Reply =
  { id: number; ok: true; value: unknown } | { id: number; ok: false; error: SerializedError };
