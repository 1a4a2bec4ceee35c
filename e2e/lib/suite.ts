import { inject as injectProvided } from 'vitest';

/**
 * One of the suite's servers (global-setup.ts starts one per worker): where it answers, the members' uids,
 * where it writes its log, and the list of secrets the browser sent it.
 */
export interface SuiteServer {
  baseURL: string;
  uids: Record<string, number>;
  /** Where the server writes its log (JSON lines), and where the tests list what it must not hold. */
  serverLog: string;
  secretsFile: string;
}

declare module 'vitest' {
  export interface ProvidedContext {
    servers: SuiteServer[];
  }
}

/**
 * What the suite's server of this worker is (Vitest's `inject`, one value per worker): the files run in
 * parallel workers, VITEST_POOL_ID (1 to maxWorkers) says which one runs this file, and no two files running
 * at once share a server.
 */
export function inject<K extends keyof SuiteServer>(key: K): SuiteServer[K] {
  const servers = injectProvided('servers');
  const worker = Number(process.env.VITEST_POOL_ID ?? 1);
  return servers[(worker - 1) % servers.length]![key];
}
