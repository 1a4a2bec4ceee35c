/**
 * glibc malloc settings for a server process (product.md §15.7 item 5, decision 010 "Memory given back").
 * By default glibc raises its thresholds after a large block is freed, and from then on keeps what large
 * frames and pictures freed: a flood left the server 240-280 MB above where it started. Fixed thresholds
 * give such blocks back when they are freed (after the same flood: 40 MB above, and a peak of 600 MB instead
 * of 860). glibc reads them from the environment as the process starts, so whatever starts the server sets
 * them: `npm start`, the cluster script, the tests and benchmarks (from here), a service unit (README).
 */
export const ALLOCATOR_ENV = {
  /** Blocks from 128 KiB on are mapped on their own and unmapped when freed. */
  MALLOC_MMAP_THRESHOLD_: '131072',
  /** Free memory at the top of the heap beyond 1 MiB goes back to the system. */
  MALLOC_TRIM_THRESHOLD_: '1048576',
} as const;

/** Whether `env` carries ALLOCATOR_ENV (main.ts says so in its log when it does not). */
export function allocatorTuned(env: NodeJS.ProcessEnv = process.env): boolean {
  return Object.entries(ALLOCATOR_ENV).every(([name, value]) => env[name] === value);
}
