import { configProblems, KNOWN_VARIABLES } from './config-env.js';
import { readEnvironmentFile } from './env-file.js';

/*
 * What an operator sees before the server serves (docs/operations.md, "Configuration"): `--check` of an
 * environment file, near-miss variable names, and a start that fails because PostgreSQL or Redis cannot be
 * reached, each said in one line of English.
 */

/** Edit distance with adjacent swaps (REDIS_ULR is one step from REDIS_URL), for near-miss names only. */
function distance(a: string, b: string): number {
  const d = Array.from({ length: a.length + 1 }, (_, i) => [i, ...Array<number>(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j += 1) d[0]![j] = j;
  for (let i = 1; i <= a.length; i += 1) {
    for (let j = 1; j <= b.length; j += 1) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      d[i]![j] = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        d[i]![j] = Math.min(d[i]![j]!, d[i - 2]![j - 2]! + 1);
      }
    }
  }
  return d[a.length]![b.length]!;
}

/**
 * Variables set but unknown that are one or two edits from a known one (`REDIS_ULR`, `DATABSE_URL`): almost
 * surely a typo that leaves the known one unset. Short names allow one edit only (HOME is not HOST).
 */
export function nearMisses(env: NodeJS.ProcessEnv): { name: string; known: string }[] {
  const misses: { name: string; known: string }[] = [];
  for (const name of Object.keys(env)) {
    if (KNOWN_VARIABLES.includes(name)) continue;
    const upper = name.toUpperCase();
    const known = KNOWN_VARIABLES.find((each) => {
      const edits = distance(upper, each);
      return edits <= (each.length > 6 ? 2 : 1) && (edits > 0 || name !== each);
    });
    if (known) misses.push({ name, known });
  }
  return misses;
}

/** The near-miss lines for an environment: an unknown variable one or two edits from a known one. */
export function nearMissLines(env: NodeJS.ProcessEnv): string[] {
  return nearMisses(env).map(
    ({ name, known }) =>
      `Unknown environment variable ${name}: did you mean ${known}?${env[known] ? '' : ` (${known} is not set)`}`,
  );
}

/**
 * `node server/dist/main.js --check [--env-file FILE]`: checks FILE (or this process's environment) offline,
 * connecting to nothing. Each problem is a line naming its variable; code 0: fine, 1: problems, 2: no file.
 */
export function checkConfiguration(
  args: string[],
  env: NodeJS.ProcessEnv = process.env,
): { code: number; lines: string[] } {
  const at = args.findIndex((arg) => arg === '--env-file' || arg.startsWith('--env-file='));
  const file = at < 0 ? undefined : args[at]!.includes('=') ? args[at]!.split('=')[1] : args[at + 1];
  if (at >= 0 && !file) return { code: 2, lines: ['--env-file needs a file name'] };
  let values: NodeJS.ProcessEnv = env;
  const problems: string[] = [];
  if (file) {
    try {
      const read = readEnvironmentFile(file);
      values = read.values;
      problems.push(...read.problems);
    } catch (error) {
      return { code: 2, lines: [`Cannot read ${file}: ${(error as Error).message}`] };
    }
  }
  problems.push(...configProblems(values), ...nearMissLines(values));
  if (problems.length > 0) return { code: 1, lines: problems };
  return { code: 0, lines: [`${file ?? 'The environment'}: configuration valid`] };
}

/** Connection failures: the service is down, unreachable, or refuses this client (not a bug of ours). */
const UNREACHABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
  'CONNECT_TIMEOUT', // postgres.js
  '28000', // PostgreSQL: no such role or not allowed from here
  '28P01', // PostgreSQL: wrong password
  '3D000', // PostgreSQL: no such database
]);

/** The innermost error of a cause chain with a connection-failure code, if any. */
function connectionFailure(error: unknown): Error | null {
  let found: Error | null = null;
  for (let each = error; each instanceof Error; each = each.cause) {
    const code = (each as { code?: unknown }).code;
    if (typeof code === 'string' && UNREACHABLE_CODES.has(code)) found = each;
  }
  return found;
}

/** A start stopped because a service could not be reached; the message is the one line to print. */
export class ServiceUnreachableError extends Error {
  constructor(service: 'PostgreSQL' | 'Redis', variable: string, url: string, cause: Error) {
    // The host and port only: the URL's user and password stay out of the log.
    super(`Cannot start: ${service} at ${new URL(url).host} (${variable}) is unreachable: ${cause.message}`);
    this.name = 'ServiceUnreachableError';
  }
}

/**
 * Runs the first step that talks to a service; a connection failure (in the error thrown or, for clients
 * that report it apart, the `reported` one) becomes a ServiceUnreachableError naming the service.
 */
export async function firstContact<T>(
  service: 'PostgreSQL' | 'Redis',
  variable: string,
  url: string,
  step: () => Promise<T>,
  reported: () => unknown = () => undefined,
): Promise<T> {
  try {
    return await step();
  } catch (error) {
    const failure = connectionFailure(error) ?? connectionFailure(reported());
    if (failure) throw new ServiceUnreachableError(service, variable, url, failure);
    throw error;
  }
}
