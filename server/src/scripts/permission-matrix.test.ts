import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ja, type Permission, type ServerFrame } from '@enishi/contract';
import type { RouteOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FRAME_PERMISSIONS, frameRefusal, type ClientFrameType } from '../realtime/chat-frames.js';
import { call, createTestContext, createUser, login, type TestContext, type TestUser } from '../test/app.js';
import { ENGINES } from '../test/database.js';
import { listen, TestSocket } from '../test/socket.js';
import {
  callCell,
  frameCell,
  MATRIX_CALLERS,
  renderPermissionsDoc,
  type DeclaredCall,
  type MatrixCaller,
} from './permission-matrix.js';

/*
 * The permission matrix (docs/permissions.md) is what the app does: the file is what `npm run permissions`
 * writes from the code, and every cell holds against the running app on both engines, calls through
 * app.inject and frames over a real socket.
 */

const DOC = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../docs/permissions.md');

/** The cells docs/permissions.md promises, by call (`/api/x`) or frame type, in MATRIX_CALLERS' order. */
function promised(): Map<string, string[]> {
  const rows = new Map<string, string[]>();
  for (const line of readFileSync(DOC, 'utf8').split('\n')) {
    const cells = line
      .split('|')
      .slice(1, -1)
      .map((cell) => cell.trim());
    const key = /^`([^`]+)`$/.exec(cells[0] ?? '')?.[1];
    if (key && cells.length > MATRIX_CALLERS.length) rows.set(key, cells.slice(-MATRIX_CALLERS.length));
  }
  return rows;
}
const CALL_CELL = { '✓': 'ok', '401': 401, '403': 403 } as const;
const FRAME_CELL = { '✓': 'ok', 拒否: 'refused', '—': 'closed' } as const;

// Calls that end the caller's session go last, so the others run with a live one.
const LAST = ['logout'];
const ROLE_OF: Partial<Record<MatrixCaller, number>> = { admin: 1, owner: 2, staff: 3, man: 101, woman: 201 };

for (const engine of ENGINES) {
  describe(`every cell of the permission matrix holds (${engine})`, () => {
    let ctx: TestContext;
    const calls: DeclaredCall[] = [];
    const ssid: Partial<Record<MatrixCaller, string>> = {};
    const users: Partial<Record<MatrixCaller, TestUser>> = {};

    beforeAll(async () => {
      ctx = await createTestContext({
        engine,
        deps: {
          onRoute: (route: RouteOptions) => {
            if (typeof route.url !== 'string' || !route.url.startsWith('/api/')) return;
            const config = route.config as { permission?: Permission } | undefined;
            calls.push({ name: route.url.slice(5), permission: config?.permission ?? null });
          },
        },
      });
      for (const [key, role] of Object.entries(ROLE_OF) as [MatrixCaller, number][]) {
        users[key] = await createUser(ctx.app, { loginId: `matrix-${key}`, role });
        ssid[key] = await login(ctx.app, users[key]);
      }
      // A deleted account: its session, once valid, outlives the account in the client's hands.
      const gone = await createUser(ctx.app, { loginId: 'matrix-gone', role: 101 });
      ssid.deleted = await login(ctx.app, gone);
      expect((await call(ctx.app, 'deluser', { ssid: ssid.owner, uid: gone.uid })).status).toBe(200);
    });
    afterAll(() => ctx.close());

    it('docs/permissions.md is what `npm run permissions` writes from the code (run it after a change)', () => {
      const sorted = [...calls].sort((a, b) => a.name.localeCompare(b.name));
      expect(readFileSync(DOC, 'utf8')).toBe(renderPermissionsDoc(sorted));
    });

    it('calls: allowed goes on to the body, refused answers the status the matrix names', async () => {
      const matrix = promised();
      const names = new Set(calls.map((each) => each.name));
      expect(names.size).toBeGreaterThan(40);
      const ordered = [
        ...calls.filter((each) => !LAST.includes(each.name)),
        ...calls.filter((each) => LAST.includes(each.name)),
      ];
      // The app registers each call once per build (the context builds one app): no duplicates to walk.
      const seen = new Set<string>();
      const cells: string[] = [];
      for (const { name, permission } of ordered) {
        if (seen.has(name)) continue;
        seen.add(name);
        const row = matrix.get(`/api/${name}`);
        if (!row) {
          cells.push(`${name}: not in docs/permissions.md`);
          continue;
        }
        for (const [index, caller] of MATRIX_CALLERS.entries()) {
          const session = ssid[caller.key];
          const reply = await call(ctx.app, name, session === undefined ? {} : { ssid: session });
          const expected = CALL_CELL[row[index] as keyof typeof CALL_CELL];
          expect(expected, `${name} × ${caller.key} in docs/permissions.md`).toBe(
            callCell(permission, caller.actor),
          );
          const ok =
            expected === 'ok'
              ? reply.status < 500 && (permission === null || (reply.status !== 401 && reply.status !== 403))
              : reply.status === expected;
          if (!ok) cells.push(`${name} × ${caller.key}: expected ${expected}, got ${reply.status}`);
        }
      }
      expect(cells).toEqual([]);
    });

    it('frames: each type from each role is handled or refused with an error frame, as the matrix says', async () => {
      const matrix = promised();
      const origin = await listen(ctx.app);
      const frames = Object.entries(FRAME_PERMISSIONS) as [ClientFrameType, Permission][];
      const cells: string[] = [];
      for (const [index, caller] of MATRIX_CALLERS.entries()) {
        const session = ssid[caller.key];
        if (caller.key === 'deleted' || caller.key === 'none') {
          // No session: the socket never opens for frames.
          const socket = await TestSocket.connect(origin);
          socket.send({ type: 'session', session: session ?? 'none', endpoint: null, last_id: null });
          expect((await socket.closed).code).toBe(4401);
          for (const [type] of frames) expect(matrix.get(type)?.[index], type).toBe('—');
          continue;
        }
        // A session of its own: the call walk ended the first one with `logout`.
        const socket = await TestSocket.session(origin, await login(ctx.app, users[caller.key]!));
        for (const [type, permission] of frames) {
          const probe = `probe-${type}`;
          // A body the frame does not accept: an allowed frame answers "bad request" (or, for `staff`, the
          // list), a refused one its refusal. The marker after it is answered once the probe was handled.
          socket.send({ type, client_id: probe });
          socket.send({ type: 'no-such-frame', client_id: `${probe}-done` });
          await socket.take((frame) => frame.type === 'error' && frame.client_id === `${probe}-done`);
          const refused = socket
            .untaken()
            .some(
              (frame: ServerFrame) =>
                frame.type === 'error' && frame.client_id === probe && frame.error === frameRefusal(type),
            );
          const expected = FRAME_CELL[matrix.get(type)?.[index] as keyof typeof FRAME_CELL];
          expect(expected, `${type} × ${caller.key} in docs/permissions.md`).toBe(
            frameCell(permission, caller.actor),
          );
          if (refused !== (expected === 'refused'))
            cells.push(`${type} × ${caller.key}: expected ${expected}`);
        }
        await socket.close();
      }
      expect(cells).toEqual([]);
      expect(frameRefusal('text')).toBe(ja.errors.forbidden);
    });
  });
}
