import { ReportReply, jaMember } from '@enishi/contract';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { conversations, messages, settingRequests, users } from '../db/schema.js';
import { call, createTestContext, createUser, type TestContext, type TestUser } from '../test/app.js';
import { createRoleUsers, type RoleName } from '../test/content.js';

/*
 * Reports (product.md §2.9) on known data in March 2025 (Japan time): every first reply's wait is given in
 * the comments, so the medians and 90th percentiles below are percentile_cont's, worked by hand.
 */
const jst = (at: string) => new Date(`${at}+09:00`);

describe('reports (product.md §2.9)', () => {
  let ctx: TestContext;
  let ssid: Record<RoleName, string>;
  let s1: TestUser;
  let s2: TestUser;
  const report = async (who: RoleName, month: unknown) =>
    call(ctx.app, 'reports', { ssid: ssid[who], month });
  const march = async () => {
    const reply = await report('admin', '2025-03');
    expect(reply.status).toBe(200);
    return ReportReply.parse(reply.body);
  };

  beforeAll(async () => {
    ctx = await createTestContext();
    ({ ssid } = await createRoleUsers(ctx.app, 'rep-'));
    s1 = await createUser(ctx.app, { loginId: 'rep-s1', role: 3, name: '佐藤 一郎' });
    s2 = await createUser(ctx.app, { loginId: 'rep-s2', role: 2, name: '青木 二郎' });
    const { db } = ctx.database;
    // Readings put 青木 (あおき) before 佐藤 (さとう).
    await db.update(users).set({ nameKana: 'さとう いちろう' }).where(eq(users.id, s1.uid));
    await db.update(users).set({ nameKana: 'あおき じろう' }).where(eq(users.id, s2.uid));
    const member = async (loginId: string, role: number) => {
      const user = await createUser(ctx.app, { loginId, role });
      const [talk] = await db.select().from(conversations).where(eq(conversations.memberId, user.uid));
      return { uid: user.uid, talk: talk!.id };
    };
    const [a, b, c, d, e] = [
      await member('rep-a', 101),
      await member('rep-b', 201),
      await member('rep-c', 101),
      await member('rep-d', 201),
      await member('rep-e', 101),
    ];
    const say = (
      talk: { uid: number; talk: number },
      senderId: number | null,
      at: string,
      deleted = false,
    ) => ({
      conversationId: talk.talk,
      senderId,
      body: at,
      createdAt: jst(at),
      deletedAt: deleted ? jst(at) : null,
    });
    await db.insert(messages).values([
      // E asked in February and is never answered: open every day of March.
      say(e, e.uid, '2025-02-20T10:00:00'),
      // C asked at 23:00 on the month's eve; s1 answered at 00:30 on 1 March: 5,400 s, a reply of 1 March.
      say(c, s1.uid, '2025-02-28T20:00:00'),
      say(c, c.uid, '2025-02-28T23:00:00'),
      say(c, c.uid, '2025-02-28T23:30:00'),
      say(c, s1.uid, '2025-03-01T00:30:00'),
      // A: two messages, s1 answers 5 minutes after the first (300 s); s1's next message is no first reply.
      say(a, a.uid, '2025-03-10T10:00:00'),
      say(a, a.uid, '2025-03-10T10:01:00'),
      say(a, s1.uid, '2025-03-10T10:05:00'),
      say(a, s1.uid, '2025-03-10T11:00:00'),
      // A asks at 23:50, s2 answers at 00:10 the next day: 1,200 s, a reply of 11 March; A open at the end of 10 March.
      say(a, a.uid, '2025-03-10T23:50:00'),
      say(a, s2.uid, '2025-03-11T00:10:00'),
      // B: 600 s by s1, then 3,600 s by s2, both on 11 March.
      say(b, b.uid, '2025-03-11T09:00:00'),
      say(b, s1.uid, '2025-03-11T09:10:00'),
      say(b, b.uid, '2025-03-11T12:00:00'),
      say(b, s2.uid, '2025-03-11T13:00:00'),
      // D asks on 12 March; the only answer was deleted, so D stays open to the month's end.
      say(d, d.uid, '2025-03-12T10:00:00'),
      say(d, s1.uid, '2025-03-12T11:00:00', true),
      // April is another month.
      say(d, s2.uid, '2025-04-01T00:00:00'),
    ]);
    const request = (createdAt: string, status: string, decidedAt: string | null) => ({
      manId: a.uid,
      womanId: b.uid,
      preferred1: jst('2025-06-01T19:00:00'),
      preferred2: jst('2025-06-02T19:00:00'),
      preferred3: jst('2025-06-03T19:00:00'),
      status: status as 'requested',
      createdAt: jst(createdAt),
      decidedAt: decidedAt === null ? null : jst(decidedAt),
    });
    await db
      .insert(settingRequests)
      .values([
        request('2025-03-05T12:00:00', 'requested', null),
        request('2025-03-31T23:30:00', 'requested', null),
        request('2025-04-01T00:30:00', 'requested', null),
        request('2025-02-20T12:00:00', 'arranged', '2025-03-02T15:00:00'),
        request('2025-03-03T12:00:00', 'cancelled', '2025-03-10T09:00:00'),
        request('2025-01-10T12:00:00', 'declined', '2025-01-15T09:00:00'),
      ]);
  });
  afterAll(() => ctx.close());

  it('gives the median and 90th percentile of first replies in all and per staff member', async () => {
    const body = await march();
    // All: 300, 600, 1,200, 3,600, 5,400.
    expect(body.total).toEqual({ replies: 5, median: 1200, p90: 4680 });
    // In あいうえお order of the readings.
    expect(body.staff).toEqual([
      // s2: 1,200 and 3,600.
      { uid: s2.uid, name: '青木 二郎', replies: 2, median: 2400, p90: 3360 },
      // s1: 300, 600 and 5,400.
      { uid: s1.uid, name: '佐藤 一郎', replies: 3, median: 600, p90: 4440 },
    ]);
  });

  it('counts each day in Japan time: replies by the day they were sent, across midnight', async () => {
    const days = new Map((await march()).days.map((day) => [day.day, day]));
    expect(days.size).toBe(31);
    expect(days.get('2025-03-01')).toMatchObject({ replies: 1, median: 5400, p90: 5400 });
    expect(days.get('2025-03-10')).toMatchObject({ replies: 1, median: 300, p90: 300 });
    // 1,200 (asked on 10 March), 600 and 3,600.
    expect(days.get('2025-03-11')).toMatchObject({ replies: 3, median: 1200, p90: 3120 });
    expect(days.get('2025-03-05')).toMatchObject({ replies: 0, median: null, p90: null });
  });

  it('counts desk messages per day and the talks whose latest message at 23:59:59 was the member’s', async () => {
    const days = (await march()).days;
    const on = (day: string) => days.find((each) => each.day === `2025-03-${day}`)!;
    expect(on('01')).toMatchObject({ from_members: 0, from_staff: 1, open_talks: 1 });
    expect(on('09')).toMatchObject({ from_members: 0, from_staff: 0, open_talks: 1 });
    expect(on('10')).toMatchObject({ from_members: 3, from_staff: 2, open_talks: 2 });
    expect(on('11')).toMatchObject({ from_members: 2, from_staff: 3, open_talks: 1 });
    // The deleted answer neither counts nor closes D's talk.
    expect(on('12')).toMatchObject({ from_members: 1, from_staff: 0, open_talks: 2 });
    expect(on('31')).toMatchObject({ from_members: 0, from_staff: 0, open_talks: 2 });
  });

  it('counts setting requests by the month they came in and decisions by the month they were made', async () => {
    const settings = (await march()).settings;
    expect(settings.map((row) => row.month)).toEqual([
      '2024-04',
      '2024-05',
      '2024-06',
      '2024-07',
      '2024-08',
      '2024-09',
      '2024-10',
      '2024-11',
      '2024-12',
      '2025-01',
      '2025-02',
      '2025-03',
    ]);
    expect(settings.slice(-3)).toEqual([
      { month: '2025-01', requested: 1, arranged: 0, declined: 1, cancelled: 0 },
      { month: '2025-02', requested: 1, arranged: 0, declined: 0, cancelled: 0 },
      // 23:30 on 31 March is March in Japan; 00:30 on 1 April is not.
      { month: '2025-03', requested: 3, arranged: 1, declined: 0, cancelled: 1 },
    ]);
  });

  it('lists no days for a month still to come', async () => {
    const reply = await report('owner', '2099-01');
    expect(reply.status).toBe(200);
    expect(ReportReply.parse(reply.body)).toMatchObject({ days: [], staff: [], total: { replies: 0 } });
  });

  it('refuses staff of role 3 to 6 and members (403) and no session (401)', async () => {
    for (const who of ['staff', 'staff6', 'man', 'woman'] as const)
      expect((await report(who, '2025-03')).status).toBe(403);
    expect((await call(ctx.app, 'reports', { ssid: 'nobody', month: '2025-03' })).status).toBe(401);
  });

  it('answers a bad month with a Japanese 400', async () => {
    for (const month of ['2025-13', '2025-3', '2025/03', '三月', 202503, undefined]) {
      const reply = await report('admin', month);
      expect(reply.status).toBe(400);
      expect(reply.body).toMatchObject({ error: jaMember.reports.errors.badMonth });
    }
  });
});
