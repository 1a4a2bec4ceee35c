import { fileURLToPath } from 'node:url';
import { configDefaults, defineConfig } from 'vitest/config';

// Unit and in-process API tests. End-to-end tests have their own config in e2e/.
const contract = fileURLToPath(new URL('./packages/contract/src/index.ts', import.meta.url));
const serverSetup = fileURLToPath(new URL('./server/src/test/global-setup.ts', import.meta.url));

// The web's tests. Component tests choose jsdom in their first line (`// @vitest-environment jsdom`).
const webTests = ['web/src/**/*.test.{ts,tsx}', 'web/scripts/**/*.test.ts'];
/**
 * The web tests that talk to a real local server (web/src/testing/browser-shims.ts, club-server.ts) keep a
 * process per file: they patch Node's globals (fetch, WebSocket), and the chat socket's module, once started,
 * follows every later session in its process and would reconnect to the closed server of the file before.
 * `web/src/testing/own-process.test.ts` keeps this list whole.
 */
const webTestsOwnProcess = [
  'web/src/lib/chat/socket.test.ts',
  'web/src/features/broadcast/components/scheduled.test.tsx',
  'web/src/features/security/components/reauth-dialog.test.tsx',
  'web/src/features/security/components/security-panel.test.tsx',
  'web/src/features/talk/components/composer.test.tsx',
  'web/src/features/talk/components/composer-pictures.test.tsx',
  'web/src/features/talk/components/stamp-picker.test.tsx',
  'web/src/features/talk/components/talk-screen.test.tsx',
  'web/src/features/talk/components/talk-screen-menu.test.tsx',
  'web/src/features/talk/hooks/use-keep-history.test.tsx',
];
const web = {
  extends: true,
  resolve: {
    alias: {
      '@': fileURLToPath(new URL('./web/src', import.meta.url)),
      'virtual:pwa-register': fileURLToPath(new URL('./web/src/testing/pwa-register.ts', import.meta.url)),
    },
  },
} as const;

export default defineConfig({
  resolve: { alias: { '@enishi/contract': contract } },
  test: {
    // Two files at a time even on 2 cores (Vitest's default there is one): most tests wait on PostgreSQL, Redis
    // or a server process of their own. Each file has its own databases and Redis database number
    // (server/src/test/database.ts, test/redis.ts), so files never share state. The load tests run one by one.
    maxWorkers: 2,
    projects: [
      {
        extends: true,
        test: {
          name: 'contract',
          include: ['packages/contract/src/**/*.test.ts'],
          environment: 'node',
          isolate: false,
        },
      },
      {
        extends: true,
        test: {
          name: 'server',
          include: ['server/src/**/*.test.ts'],
          // A project's own exclude replaces Vitest's defaults (node_modules, .git): they are kept.
          exclude: [
            ...configDefaults.exclude,
            'server/src/**/*.load.test.ts',
            'server/src/**/*.upgrade.test.ts',
            // `npm test` runs the route files on Node 22 and 24 instead, and sets this for this Node's run
            // (scripts/test.mjs). Here, not on the command line: Vitest's --exclude leaves a project's own be.
            ...(process.env.TEST_ROUTES_ELSEWHERE === '1' ? ['server/src/routes/**'] : []),
          ],
          environment: 'node',
          // One migrated template database per run, copied for each file (server/src/test/template-database.ts).
          globalSetup: [serverSetup],
          // A worker's files share one module graph: the server's modules and their dependencies (Fastify,
          // Drizzle, PGlite's WebAssembly, zod) load once per worker instead of once per file, which was most of
          // the run's CPU. Files share no state through it: each opens its own app, databases and Redis database,
          // and restores what it fakes (timers) after each test; a shuffled run finds one that leans on another.
          isolate: false,
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      // Tests that time the server under attack: run alone (`npm test` runs them after the others), one file at
      // a time, so that no other test shares the cores while they measure.
      {
        extends: true,
        test: {
          name: 'load',
          include: ['server/src/**/*.load.test.ts'],
          environment: 'node',
          globalSetup: [serverSetup],
          fileParallelism: false,
          testTimeout: 60_000,
          hookTimeout: 60_000,
        },
      },
      // A rolling upgrade from the previous release (docs/releases.md): builds that release once (minutes, then
      // cached), so `npm run test:upgrade` runs it, not `npm test`.
      {
        extends: true,
        test: {
          name: 'upgrade',
          include: ['server/src/**/*.upgrade.test.ts'],
          environment: 'node',
          globalSetup: [serverSetup],
          fileParallelism: false,
          testTimeout: 60_000,
          hookTimeout: 60_000,
        },
      },
      {
        ...web,
        test: {
          name: 'web',
          include: webTests,
          exclude: [...configDefaults.exclude, ...webTestsOwnProcess],
          environment: 'node',
          // As the server's: a worker's files share one module graph (React, Testing Library and the app load
          // once per worker instead of once per file). Files that talk to a real local server run apart (below).
          isolate: false,
        },
      },
      {
        ...web,
        test: {
          name: 'web-server',
          include: webTestsOwnProcess,
          environment: 'node',
        },
      },
    ],
  },
});
