import { MessagesReply } from '@enishi/contract';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rowsOf } from '../db/raw.js';
import { call, createTestContext, createUser, login, type TestContext } from '../test/app.js';
import { ENGINES } from '../test/database.js';
import { deskOf } from '../test/talk.js';

const STORED = 10_000;

/*
 * Issue O1: paging a long talk with `before`, from the newest message until `isEnd`, returns each stored
 * message exactly once, on both engines. The loop is the web app's: the next `before` is the smallest id
 * of the dated groups; the pinned `announce` group (first page only) repeats older messages and is not a
 * place in the timeline.
 */
describe.each(ENGINES)('paging /api/messages over %s', (engine) => {
  let ctx: TestContext;
  let ssid: string;
  let desk: number;
  let stored: number[];

  beforeAll(async () => {
    ctx = await createTestContext({ engine });
    const member = await createUser(ctx.app, { loginId: 'paged', role: 201, name: '頁 花子' });
    ssid = await login(ctx.app, member);
    desk = await deskOf(ctx.app, ssid);
    // 10,000 messages in one statement, several a second apart and some within one millisecond; every
    // 997th pinned.
    await ctx.database.db.execute(sql`
      insert into messages (conversation_id, sender_id, body, announce, client_id, created_at)
      select ${desk}, ${member.uid}, 'm' || n, n % 997 = 0, gen_random_uuid(),
        timestamptz '2026-01-01 00:00:00+00' + (n / 3) * interval '7 minutes'
      from generate_series(1, ${STORED}) as n`);
    const rows = await ctx.database.db.execute(
      sql`select id from messages where conversation_id = ${desk} order by id`,
    );
    stored = rowsOf<{ id: number | string }>(rows).map((row) => Number(row.id));
  }, 120_000);
  afterAll(() => ctx.close());

  it(
    'returns each of 10,000 messages once, newest page first, until isEnd',
    { timeout: 120_000 },
    async () => {
      expect(stored).toHaveLength(STORED);
      const seen: number[] = [];
      let before: number | undefined;
      for (let pages = 0; pages <= STORED; pages += 1) {
        const reply = await call(ctx.app, 'messages', { ssid, id: desk, ...(before ? { before } : {}) });
        expect(reply.status).toBe(200);
        const page = MessagesReply.parse(reply.body);
        const ids = page.rows
          .filter((group) => group.date !== 'announce')
          .flatMap((group) => group.messages.map((m) => m.id));
        // Oldest first within a page; the page is older than the one before it.
        expect(ids).toEqual([...ids].sort((a, b) => a - b));
        if (before !== undefined) expect(Math.max(...ids)).toBeLessThan(before);
        seen.push(...ids);
        if (page.isEnd) break;
        before = Math.min(...ids);
      }
      expect(seen.sort((a, b) => a - b)).toEqual(stored);
    },
  );
});
