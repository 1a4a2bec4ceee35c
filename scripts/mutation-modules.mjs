/*
 * What `npm run mutation` mutates (issue 45, outcome 4): each module with the Vitest project its tests run in
 * and only the test files that cover it. A mutant no test of its module kills lowers the module's score.
 */
export const MUTATION_MODULES = {
  permissions: {
    project: 'contract',
    mutate: ['packages/contract/src/permissions.ts'],
    tests: ['packages/contract/src/permissions.test.ts', 'packages/contract/src/permission-rules.test.ts'],
  },
  'message-order': {
    project: 'server',
    mutate: ['server/src/bus/message-order.ts'],
    tests: [
      'server/src/bus/message-order-gap.test.ts',
      'server/src/bus/message-order-pending.test.ts',
      'server/src/bus/message-order-start.test.ts',
      'server/src/bus/message-order-tail.test.ts',
    ],
  },
  'push-endpoint': {
    project: 'server',
    mutate: ['server/src/lib/push-endpoint.ts'],
    tests: ['server/src/lib/push-endpoint.test.ts'],
  },
  'rate-limits': {
    project: 'server',
    mutate: ['server/src/lib/limiters.ts'],
    tests: ['server/src/lib/limiters.test.ts'],
  },
  outbox: {
    project: 'web',
    mutate: ['web/src/lib/chat/outbox.ts'],
    tests: [
      'web/src/lib/chat/outbox.test.ts',
      'web/src/lib/chat/outbox-memory.test.ts',
      'web/src/lib/chat/outbox-hook.test.tsx',
      'web/src/lib/chat/outbox-store.test.ts',
    ],
  },
  // The checks a restore makes as it reads a backup (read-backup.ts up to restoreBackup itself), against the
  // small archives of restore-checks.test.ts: the files that restore whole clubs take a minute a run.
  'backup-reads': {
    project: 'server',
    mutate: ['server/src/backup/read-backup.ts:21-158'],
    tests: ['server/src/backup/restore-checks.test.ts'],
  },
};

/** The module a run is for (MUTATION_MODULE), refused when it is not one of the above. */
export function mutationModule(name = process.env.MUTATION_MODULE) {
  const module = name ? MUTATION_MODULES[name] : undefined;
  if (!module) {
    throw new Error(
      `MUTATION_MODULE must be one of ${Object.keys(MUTATION_MODULES).join(', ')} (got ${name})`,
    );
  }
  return module;
}
