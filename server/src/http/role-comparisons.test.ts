import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/*
 * One permission model (product.md §6, docs/permissions.md): role numbers are read in the contract's
 * permissions.ts (and defined in roles.ts) alone. Everything else asks `can(actor, permission)`, or
 * `roleGroup(role)` where only presentation differs by group. This test fails when a source file compares a
 * role itself. Queries that select people by role (the women's list, the staff to ring) stay in the
 * repositories listed below, pinned by count, so a new one is a decision rather than an accident.
 */

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const TREES = ['server/src', 'web/src', 'packages/contract/src'];
const PERMISSION_MODULES = ['packages/contract/src/permissions.ts', 'packages/contract/src/roles.ts'];

const OP = String.raw`(?:===|!==|==|!=|<=|>=|<|>)`;
/** A role compared with a number, with ROLE.x or with another role (`role === null` is not a comparison). */
const COMPARISONS = [
  new RegExp(String.raw`\b\w*[rR]ole\b\??\s*${OP}\s*(?:\d|ROLE\b|[\w.?]*[rR]ole\b)`),
  new RegExp(String.raw`(?:\b\d+|ROLE\.\w+)\s*${OP}\s*[\w.?]*[rR]ole\b`),
  new RegExp(String.raw`${OP}\s*ROLE\.\w+|ROLE\.\w+\s*${OP}`),
];
/** SQL that selects by role. */
const SQL_FILTERS = /\b(?:eq|between|inArray)\(\s*[\w.]+\.role\b|\$\{ROLE\.\w+\}/;

/** The SQL selections by role that remain, per file (see the comment above). */
const SQL_ALLOWED: Record<string, number> = {
  'server/src/repositories/entry-repository.ts': 2,
  'server/src/repositories/push-repository.ts': 1,
  'server/src/repositories/call-repository.ts': 1,
  'server/src/repositories/member-admin-repository.ts': 3,
  'server/src/repositories/conversation-repository.ts': 1,
  'server/src/repositories/broadcast-repository.ts': 1,
  'server/src/repositories/news-repository.ts': 1,
  'server/src/repositories/user-repository.ts': 1,
  'server/src/rules/conversation-rules.ts': 1,
};

function sources(dir: string): string[] {
  return readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const relative = `${dir}/${entry.name}`;
    if (entry.isDirectory())
      return entry.name === 'test' || entry.name === 'testing' ? [] : sources(relative);
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [relative] : [];
  });
}

/** Lines without their comments, so a comment that names a role does not count. */
function codeLines(file: string): string[] {
  return readFileSync(path.join(ROOT, file), 'utf8')
    .replace(/\/\*[\s\S]*?\*\//g, (comment) => comment.replace(/[^\n]/g, ''))
    .split('\n')
    .map((line) => line.replace(/(^|[^:])\/\/.*$/, '$1'));
}

export function roleComparisons(): { comparisons: string[]; sql: Record<string, number> } {
  const comparisons: string[] = [];
  const sql: Record<string, number> = {};
  for (const file of TREES.flatMap(sources)) {
    if (PERMISSION_MODULES.includes(file) || file.startsWith('server/src/scripts/')) continue;
    codeLines(file).forEach((line, index) => {
      if (COMPARISONS.some((pattern) => pattern.test(line)))
        comparisons.push(`${file}:${index + 1}: ${line.trim()}`);
      if (SQL_FILTERS.test(line)) sql[file] = (sql[file] ?? 0) + 1;
    });
  }
  return { comparisons, sql };
}

describe('role numbers are read by the permission model alone', () => {
  const found = roleComparisons();

  it('no source file outside packages/contract/src/permissions.ts compares a role', () => {
    expect(found.comparisons).toEqual([]);
  });

  it('selections by role in SQL stay where they are', () => {
    expect(found.sql).toEqual(SQL_ALLOWED);
  });

  it('catches a comparison written any of the usual ways', () => {
    for (const line of [
      'if (actor.role === ROLE.male) throw forbidden();',
      'const staff = session.role >= 1 && session.role <= 3;',
      "return role === 101 ? 'men' : 'women';",
      'if (ROLE.owner !== user.role) return;',
      'found.every((each) => each.role === role)',
      'session?.role === ROLE.female',
    ]) {
      expect(
        COMPARISONS.some((pattern) => pattern.test(line)),
        line,
      ).toBe(true);
    }
    for (const line of [
      'if (row.role === null) return;',
      "can(actor, 'member.manage', { role: user.role })",
    ]) {
      expect(
        COMPARISONS.some((pattern) => pattern.test(line)),
        line,
      ).toBe(false);
    }
  });
});
