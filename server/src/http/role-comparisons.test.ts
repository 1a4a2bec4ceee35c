import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/*
 * One permission model (product.md §6, docs/permissions.md): role numbers are read in the contract's
 * permissions.ts (and defined in roles.ts) alone. Everything else asks `can(actor, permission)` for a record,
 * `scope(actor, permission)` for the rows of a list, or reads what differs by role without being a
 * permission (a label, a colour, a news group) as data from roles.ts's ROLE_TRAITS. This test fails when a
 * source file compares a role itself. A role group compared (`roleGroup(x) === 'men'`) decides by role as
 * surely, so those that remain are pinned by count per file below, like the queries that select people by
 * role (the women's list, the staff to ring): a new one is a decision rather than an accident. So are the
 * permission model's role helpers (`isStaffRole`, `roleGroup` ...) used outside it: at most five, each named.
 */

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const TREES = ['server/src', 'web/src', 'packages/contract/src'];
const PERMISSION_MODULES = [
  'packages/contract/src/permissions.ts',
  'packages/contract/src/permission-lines.ts',
  'packages/contract/src/roles.ts',
  'packages/contract/src/scope.ts',
];
/** The server's half of the permission model: the SQL twins of `can` and `scope` (talks, lists). */
const RULES = 'server/src/rules/';

const OP = String.raw`(?:===|!==|==|!=|<=|>=|<|>)`;
/** A role compared with a number, with ROLE.x or with another role (`role === null` is not a comparison). */
const COMPARISONS = [
  new RegExp(String.raw`\b\w*[rR]ole\b\??\s*${OP}\s*(?:\d|ROLE\b|[\w.?]*[rR]ole\b)`),
  new RegExp(String.raw`(?:\b\d+|ROLE\.\w+)\s*${OP}\s*[\w.?]*[rR]ole\b`),
  new RegExp(String.raw`${OP}\s*ROLE\.\w+|ROLE\.\w+\s*${OP}`),
];
/** A role group compared with a group (`roleGroup(x) === 'men'`, `'staff' !== roleGroup(x)`). */
const EQ = String.raw`(?:===|!==|==|!=)`;
const GROUP_COMPARISON = new RegExp(
  String.raw`\broleGroup\((?:[^()]|\([^()]*\))*\)\s*${EQ}|${EQ}\s*roleGroup\(`,
);

/**
 * The role groups still compared, per file: the desk's side of a talk (deskSideOf), in the permission
 * model's rules. Everything else that differs by group asks a permission or reads ROLE_TRAITS.
 */
const GROUP_ALLOWED: Record<string, number> = {
  'server/src/rules/conversation-rules.ts': 1,
};

/** A role's kind (ROLE_TRAITS, kindOfRole) compared with a group: `roleGroup(x) === 'men'` by another name. */
const KIND = String.raw`(?:ROLE_TRAITS\[[^\]]*\]\??\.kind|kindOfRole\((?:[^()]|\([^()]*\))*\))`;
const KIND_COMPARISON = new RegExp(String.raw`${KIND}\s*${EQ}\s*['"]|['"]\s*${EQ}\s*${KIND}`);

/**
 * The role helpers: the permission model's functions of a role (read from permissions.ts: every export whose
 * first parameter is `role`), and roleOfContentType, which gives the role of a news group to select people by.
 * Outside the permission modules a use of one is a decision by role that `can`, `scope` or ROLE_TRAITS did
 * not make.
 */
const PERMISSIONS_SOURCE = 'packages/contract/src/permissions.ts';
const EXTRA_HELPERS = ['roleOfContentType'];
const HELPER_CAP = 5;

/**
 * The role helpers still used outside the permission modules, per file, and why each stays. A news group's
 * audience (a news item told to its group, a bulk send's recipient picker) is every member of that group's
 * role: a list of people by role, selected in SQL like those pinned in SQL_ALLOWED, with no actor whose
 * permission could choose it.
 */
const HELPER_ALLOWED: Record<string, number> = {
  // news.published and the group's recounted badges go to every member of the item's group.
  'server/src/services/news-service.ts': 2,
  // The recipient picker lists every member of the group a bulk send goes to.
  'server/src/services/broadcast-service.ts': 1,
};

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
  // The owner's staff requirement holds the sessions of staff without a factor (product.md §11.7).
  'server/src/repositories/session-repository.ts': 1,
  'server/src/rules/conversation-rules.ts': 1,
  // Who may be a desk talk's 担当: every staff account (product.md §2.6).
  'server/src/repositories/desk-talk-repository.ts': 1,
};

function sources(dir: string): string[] {
  return readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const relative = `${dir}/${entry.name}`;
    if (entry.isDirectory())
      return entry.name === 'test' || entry.name === 'testing' ? [] : sources(relative);
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [relative] : [];
  });
}

const blank = (text: string) => text.replace(/[^\n]/g, '');

/** Lines without their comments, so a comment that names a role does not count. */
function codeOf(text: string): string[] {
  return text
    .replace(/\/\*[\s\S]*?\*\//g, blank)
    .split('\n')
    .map((line) => line.replace(/(^|[^:])\/\/.*$/, '$1'));
}
const codeLines = (file: string): string[] => codeOf(readFileSync(path.join(ROOT, file), 'utf8'));

/** How often a source text uses one of `helpers`: called, passed or wrapped; imports and comments aside. */
export function usesIn(text: string, helpers: readonly string[]): number {
  const use = new RegExp(String.raw`\b(?:${helpers.join('|')})\b`, 'g');
  const code = codeOf(text)
    .join('\n')
    .replace(/^(?:import|export)\b[^;]*?\bfrom\s+['"][^'"]+['"];/gm, blank);
  return code.match(use)?.length ?? 0;
}

/** The role helpers by name: permissions.ts's exports of a role, and EXTRA_HELPERS. */
export function roleHelpers(): string[] {
  const source = readFileSync(path.join(ROOT, PERMISSIONS_SOURCE), 'utf8');
  const exported = /export (?:const (\w+) = \(|function (\w+)\()role\b/g;
  return [...[...source.matchAll(exported)].map((match) => match[1] ?? match[2]!), ...EXTRA_HELPERS];
}

/** Uses of the role helpers per file outside the permission modules (imports aside). */
export function helperUses(helpers: readonly string[] = roleHelpers()): Record<string, number> {
  const uses: Record<string, number> = {};
  for (const file of TREES.flatMap(sources)) {
    if (PERMISSION_MODULES.includes(file) || file.startsWith(RULES)) continue;
    const count = usesIn(readFileSync(path.join(ROOT, file), 'utf8'), helpers);
    if (count > 0) uses[file] = count;
  }
  return uses;
}

export function roleComparisons(): {
  comparisons: string[];
  groups: Record<string, number>;
  sql: Record<string, number>;
} {
  const comparisons: string[] = [];
  const groups: Record<string, number> = {};
  const sql: Record<string, number> = {};
  for (const file of TREES.flatMap(sources)) {
    if (PERMISSION_MODULES.includes(file) || file.startsWith('server/src/scripts/')) continue;
    codeLines(file).forEach((line, index) => {
      if (COMPARISONS.some((pattern) => pattern.test(line)))
        comparisons.push(`${file}:${index + 1}: ${line.trim()}`);
      if (SQL_FILTERS.test(line)) sql[file] = (sql[file] ?? 0) + 1;
      const grouped = line.split(GROUP_COMPARISON).length - 1 + line.split(KIND_COMPARISON).length - 1;
      if (grouped > 0) groups[file] = (groups[file] ?? 0) + grouped;
    });
  }
  return { comparisons, groups, sql };
}

describe('role numbers are read by the permission model alone', () => {
  const found = roleComparisons();

  it('no source file outside packages/contract/src/permissions.ts compares a role', () => {
    expect(found.comparisons).toEqual([]);
  });

  it('role groups are compared only where they were', () => {
    expect(found.groups).toEqual(GROUP_ALLOWED);
  });

  it('selections by role in SQL stay where they are', () => {
    expect(found.sql).toEqual(SQL_ALLOWED);
  });

  it('catches a role group compared', () => {
    for (const line of [
      "const male = roleGroup(useSession()?.role) === 'men';",
      "if (roleGroup(role) !== 'staff') return;",
      "return 'women' === roleGroup(member.role);",
    ])
      expect(GROUP_COMPARISON.test(line), line).toBe(true);
    for (const line of [
      'const group = roleGroup(role);',
      "kinds[roleGroup(role) ?? 'staff']",
      'const kindOf = (role: number) => roleGroup(role);',
    ])
      expect(GROUP_COMPARISON.test(line), line).toBe(false);
  });

  it('catches a role’s kind compared with a group, not read as a key', () => {
    for (const line of [
      "if (ROLE_TRAITS[row.role]?.kind === 'men') return;",
      "const woman = kindOfRole(user.role) !== 'women';",
      "'staff' === ROLE_TRAITS[role ?? 0]?.kind",
    ])
      expect(KIND_COMPARISON.test(line), line).toBe(true);
    for (const line of [
      "jaMember.members.kinds[ROLE_TRAITS[role]?.kind ?? 'staff']",
      'if (!user || kindOfRole(user.role) !== kind) {',
      'ROLE_TRAITS[row.role]?.ranked ? <RankPill rank={row.rank} /> : null',
    ])
      expect(KIND_COMPARISON.test(line), line).toBe(false);
  });
});

describe('the role helpers stay in the permission model', () => {
  it('reads the helpers from permissions.ts', () => {
    expect(roleHelpers()).toEqual([
      'isStaffRole',
      'isMemberRole',
      'roleGroup',
      'contentTypeOfRole',
      'roleOfContentType',
    ]);
  });

  it(`are used outside the permission modules only where pinned, at most ${HELPER_CAP} times`, () => {
    const uses = helperUses();
    expect(uses).toEqual(HELPER_ALLOWED);
    expect(Object.values(uses).reduce((sum, count) => sum + count, 0)).toBeLessThanOrEqual(HELPER_CAP);
  });

  it('counts a helper called, passed or wrapped, but not imported or named in a comment', () => {
    const source = [
      "import { isStaffRole, roleGroup } from '@enishi/contract';",
      'import {',
      '  isStaffRole,',
      "} from '@enishi/contract';",
      "export { roleGroup } from './permissions.js';",
      '// isStaffRole in a comment',
      '/* roleGroup',
      '   too */',
      'const staff = isStaffRole(role);',
      'const kinds = roles.filter(isStaffRole);',
      'const groupOf = (role: number) => roleGroup(role);',
      'const roleGroups = 1;',
    ].join('\n');
    expect(usesIn(source, ['isStaffRole', 'roleGroup'])).toBe(3);
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
