import fc from 'fast-check';
import type { FastifyInstance, RouteOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { call, createTestContext, type TestContext } from '../test/app.js';
import { createRoleUsers, ROLES, type RoleName } from '../test/content.js';
import { ENGINES } from '../test/database.js';

/*
 * Every API call, whoever calls it and whatever the body, answers below 500: a client mistake is a 4xx with
 * Japanese text, never a crash. Calls are found as Fastify registers them, so a new call is covered at once.
 */

const RUNS_PER_CALLER = 12;
// Calls that end the caller's session or remove people go last, so the others run with live sessions.
const LAST = ['logout', 'deluser', 'changepassword', 'updateuser'];

/** The top-level keys of a call's body schema, looking through pipes, defaults and the like. */
function keysOf(schema: z.ZodType | undefined): string[] {
  let current: unknown = schema;
  for (let level = 0; level < 5 && current; level++) {
    const shape = (current as { shape?: Record<string, unknown> }).shape;
    if (shape) return Object.keys(shape).filter((key) => key !== 'ssid');
    const def = (current as { _zod?: { def?: Record<string, unknown> } })._zod?.def ?? {};
    current = def.in ?? def.innerType ?? def.schema;
  }
  return [];
}

const awkwardNumbers = fc.oneof(
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.constantFrom(0, -1, 0.5, -2.5, 2 ** 31 - 1, 2 ** 31, 2 ** 32, 2 ** 53 - 1, 2 ** 53, -(2 ** 53), 1e308),
);
const awkwardStrings = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.string({ maxLength: 10 }).map((text) => `${text}\u0000${text}`),
  fc.string({ maxLength: 10 }).map((text) => `${text}\ud800`),
  fc.constantFrom(
    '',
    '\udc00',
    '2147483648',
    '9007199254740993',
    '-1',
    '1.5',
    ' 7 ',
    'data:image/png;base64,AAAA',
    'https://user:pass@example.com/',
    '__proto__',
  ),
);
const awkwardValue = fc.oneof(
  awkwardNumbers,
  awkwardStrings,
  fc.boolean(),
  fc.constant(null),
  fc.array(fc.oneof(awkwardNumbers, awkwardStrings), { maxLength: 4 }),
  fc.jsonValue({ maxDepth: 3 }),
);

/** Bodies for one call: any JSON at all, or its own keys holding values of any type. */
function bodies(keys: string[], ssid: string | undefined) {
  const withKeys = fc
    .record(Object.fromEntries(keys.map((key) => [key, awkwardValue])), { requiredKeys: [] })
    .map((fields) => (ssid === undefined ? fields : { ssid, ...fields }));
  return fc.oneof(fc.jsonValue({ maxDepth: 4 }), withKeys);
}

for (const engine of ENGINES) {
  describe(`every call under fuzzing (${engine})`, () => {
    let ctx: TestContext;
    let app: FastifyInstance;
    const calls: RouteOptions[] = [];
    let ssid: Record<RoleName, string>;

    beforeAll(async () => {
      ctx = await createTestContext({ engine });
      app = await ctx.buildApp({}, undefined, {
        onRoute: (route) => {
          if (route.url.startsWith('/api/')) calls.push(route);
        },
      });
      ({ ssid } = await createRoleUsers(app, 'fuzz-'));
      const rank = (route: RouteOptions) => LAST.indexOf(route.url.slice('/api/'.length));
      calls.sort((a, b) => rank(a) - rank(b));
    });
    afterAll(() => ctx.close());

    // Before the fuzzing, which may end the sessions (logout) or remove the people it uses.
    it('answers an id beyond the column range as a bad request', async () => {
      for (const id of [2 ** 31, 2 ** 53 - 1, '2147483648']) {
        const bodies: [string, object][] = [
          ['messages', { id }],
          ['messages', { id: 1, before: id }],
          ['get_conversation', { conversation_id: id }],
          ['news/get', { type: 1, id }],
          ['banner/get', { type: 1, id }],
        ];
        for (const [name, body] of bodies) {
          const reply = await call(app, name, { ssid: ssid.staff, ...body });
          expect([name, reply.status]).toEqual([name, 400]);
        }
      }
    });

    it('answers every call below 500, with a session of each role and without', async () => {
      expect(calls.length).toBeGreaterThanOrEqual(30);
      const callers: (RoleName | undefined)[] = [undefined, ...(Object.keys(ROLES) as RoleName[])];
      const failures: string[] = [];
      for (const route of calls) {
        const keys = keysOf(route.config?.contract);
        for (const caller of callers) {
          const token = caller === undefined ? undefined : ssid[caller];
          await fc
            .assert(
              fc.asyncProperty(bodies(keys, token), async (body) => {
                const reply = await app.inject({
                  method: 'POST',
                  url: route.url,
                  headers: { 'content-type': 'application/json' },
                  payload: JSON.stringify(body),
                });
                if (reply.statusCode >= 500) failures.push(`${route.url} ${JSON.stringify(body)}`);
                return reply.statusCode < 500;
              }),
              { numRuns: RUNS_PER_CALLER, endOnFailure: true },
            )
            .catch(() => {}); // collected in `failures`, so one run shows every failing call
        }
      }
      expect(failures).toEqual([]);
    }, 120_000);
  });
}
