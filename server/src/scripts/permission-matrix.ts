import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  PERMISSION_NAMES,
  PERMISSION_LINES,
  scopedPermissions,
  refusalStatus,
  type Permission,
  type PermissionActor,
} from '@enishi/contract';
import type { RouteOptions } from 'fastify';
import { buildApp } from '../app.js';
import { loadConfig } from '../config.js';
import { openDatabase } from '../db/client.js';
import { FRAME_PERMISSIONS, frameRefusal, type ClientFrameType } from '../realtime/chat-frames.js';

/*
 * The permission matrix of docs/permissions.md (product.md §6): every call and client frame as the code
 * declares it, against every kind of caller. `npm run permissions` writes the file; permission-matrix.test.ts
 * fails when it is stale, and walks every cell against the running app.
 */

/** The callers of the matrix: roles 1, 2, 3, 101, 201, a deleted account and no session. */
export const MATRIX_CALLERS = [
  { key: 'admin', label: '1 管理者', actor: { uid: 1, role: 1 } },
  { key: 'owner', label: '2 オーナー', actor: { uid: 2, role: 2 } },
  { key: 'staff', label: '3 スタッフ', actor: { uid: 3, role: 3 } },
  { key: 'man', label: '101 男性', actor: { uid: 101, role: 101 } },
  { key: 'woman', label: '201 女性', actor: { uid: 201, role: 201 } },
  { key: 'deleted', label: '削除済み', actor: { uid: 9, role: 101, deleted: true } },
  { key: 'none', label: 'セッションなし', actor: null },
] as const satisfies readonly { key: string; label: string; actor: PermissionActor }[];

export type MatrixCaller = (typeof MATRIX_CALLERS)[number]['key'];

/** An API call as registered: its name and the permission it declares (null: an open call). */
export interface DeclaredCall {
  name: string;
  permission: Permission | null;
}

/** What a call answers a caller: `ok` (it goes on to the body and the service), 401 or 403. */
export function callCell(permission: Permission | null, actor: PermissionActor): 'ok' | 401 | 403 {
  if (permission === null) return 'ok';
  return refusalStatus(actor, permission) ?? 'ok';
}

/** What a frame gets: `ok`, `refused` (an `error` frame, the frame does nothing) or `closed` (no session). */
export function frameCell(permission: Permission, actor: PermissionActor): 'ok' | 'refused' | 'closed' {
  const status = refusalStatus(actor, permission);
  if (status === 401) return 'closed';
  return status === 403 ? 'refused' : 'ok';
}

/** Every `/api/*` call the app registers, with its declared permission, by building the app once. */
export async function declaredCalls(): Promise<DeclaredCall[]> {
  const calls: DeclaredCall[] = [];
  const onRoute = (route: RouteOptions) => {
    if (typeof route.url !== 'string' || !route.url.startsWith('/api/')) return;
    const config = route.config as { permission?: Permission } | undefined;
    calls.push({ name: route.url.slice('/api/'.length), permission: config?.permission ?? null });
  };
  const dataDir = mkdtempSync(path.join(tmpdir(), 'enishi-permissions-'));
  const database = await openDatabase({});
  try {
    await database.migrate();
    const config = loadConfig({
      LOG_LEVEL: 'silent',
      DATA_DIR: dataDir,
      WEB_DIST: path.join(dataDir, 'no-web-dist'),
    });
    const app = await buildApp(config, { database, onRoute });
    await app.ready();
    await app.close();
  } finally {
    await database.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
  return calls.sort((a, b) => a.name.localeCompare(b.name));
}

const CALL_MARK = { ok: '✓', 401: '401', 403: '403' } as const;
const FRAME_MARK = { ok: '✓', refused: '拒否', closed: '—' } as const;

function table(head: string[], rows: string[][]): string {
  const line = (cells: string[]) => `| ${cells.join(' | ')} |`;
  return [line(head), line(head.map(() => '---')), ...rows.map(line)].join('\n');
}

/** docs/permissions.md from the declarations. */
export function renderPermissionsDoc(calls: DeclaredCall[]): string {
  const callers = MATRIX_CALLERS.map((caller) => caller.label);
  const holders = (permission: Permission) =>
    MATRIX_CALLERS.filter((caller) => refusalStatus(caller.actor, permission) === null)
      .map((caller) => caller.label.split(' ')[0])
      .join(', ') || '—';
  const permissions = table(
    ['permission', 'rule', 'roles (of 1, 2, 3, 101, 201)'],
    PERMISSION_NAMES.map((name) => [`\`${name}\``, PERMISSION_LINES[name], holders(name)]),
  );
  const callRows = table(
    ['call', 'permission', ...callers],
    calls.map(({ name, permission }) => [
      `\`/api/${name}\``,
      permission ? `\`${permission}\`` : 'open',
      ...MATRIX_CALLERS.map((caller) => CALL_MARK[callCell(permission, caller.actor)]),
    ]),
  );
  const frames = Object.entries(FRAME_PERMISSIONS) as [ClientFrameType, Permission][];
  const frameRows = table(
    ['frame', 'permission', 'refusal', ...callers],
    frames.map(([type, permission]) => [
      `\`${type}\``,
      `\`${permission}\``,
      frameRefusal(type),
      ...MATRIX_CALLERS.map((caller) => FRAME_MARK[frameCell(permission, caller.actor)]),
    ]),
  );
  const scoped = scopedPermissions()
    .map((name) => `\`${name}\``)
    .join(', ');
  return `# Permissions

<!-- Generated by \`npm run permissions\` from packages/contract/src/permissions.ts, the calls'
declarations (server/src/http/calls.ts) and the frames' (server/src/realtime/chat-frames.ts).
Do not edit: permission-matrix.test.ts fails when this file is stale. -->

Every permission has a name and one rule, decided by \`can(actor, permission, resource?)\` in the contract
(product.md §6). Roles 4 to 6 hold what staff (3) hold, except where a rule names roles 1 to 3. A deleted
account has no session, so it is refused like no session at all.

Which rows of a list an actor sees is the same rule for many rows: \`scope(actor, permission)\` answers every
row or the rows matching a few field values, and server/src/rules/scope-sql.ts makes that SQL for the list's
query (both are tested row by row against \`can\`). Permissions with rows of their own: ${scoped}. The room
lists and the desk search read \`talk.read\`'s, news and banners \`content.read\`'s, setting requests
\`setting.read\`'s and a profile's history \`member.manage\`'s.

## Permissions

${permissions}

## Calls

\`✓\`: the call goes on (its body is validated, then the service decides what depends on the record, e.g.
404 for a talk one is not in). \`401\`: no session. \`403\`: the role lacks the permission. Open calls
need no session.

${callRows}

## Socket frames

\`✓\`: the frame is handled. \`拒否\`: an \`error\` frame with the refusal text answers it and nothing else
happens. \`—\`: no session, so no socket (the session frame is refused and the socket closes with 4401).

${frameRows}
`;
}
