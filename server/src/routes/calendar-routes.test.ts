import { CalendarReply, jaMember } from '@enishi/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTestContext, type TestContext } from '../test/app.js';
import { createRoleUsers, type RoleName } from '../test/content.js';

const e = jaMember.calendar.errors;

describe('the club calendar: closing days (product.md §9.3)', () => {
  let ctx: TestContext;
  let ssid: Record<RoleName, string>;
  const add = (who: RoleName, body: Record<string, unknown>) =>
    call(ctx.app, 'calendar/add', { ssid: ssid[who], name: '年末年始', ...body });
  const list = async (who: RoleName) => {
    const reply = await call(ctx.app, 'calendar', { ssid: ssid[who] });
    expect(reply.status).toBe(200);
    return CalendarReply.parse(reply.body).closingDays;
  };

  beforeAll(async () => {
    ctx = await createTestContext();
    ({ ssid } = await createRoleUsers(ctx.app, 'cal-'));
  });
  afterAll(() => ctx.close());

  it('lets the admin and the owner add closings, which anyone signed in reads by start date', async () => {
    const newYear = await add('admin', { start: '2099-12-29', end: '2100-01-03' });
    expect(newYear.status).toBe(200);
    const obon = await add('owner', { name: 'お盆', start: '2099-08-13', end: '2099-08-16' });
    expect(obon.status).toBe(200);
    const expected = [
      { id: (obon.body as { id: number }).id, name: 'お盆', start: '2099-08-13', end: '2099-08-16' },
      { id: (newYear.body as { id: number }).id, name: '年末年始', start: '2099-12-29', end: '2100-01-03' },
    ];
    // Other cases add closings of their own, each in a year of its own (the cases run in any order).
    const ofThisCase = async (who: RoleName) =>
      (await list(who)).filter((day) => day.start.startsWith('2099-') || day.start.startsWith('2100-'));
    for (const who of ['man', 'woman', 'staff', 'admin'] as const)
      expect(await ofThisCase(who)).toEqual(expected);
  });

  it('refuses staff and members (403) and no session (401)', async () => {
    for (const who of ['staff', 'staff6', 'man', 'woman'] as const) {
      const reply = await add(who, { start: '2099-05-01', end: '2099-05-01' });
      expect(reply.status).toBe(403);
      expect(await call(ctx.app, 'calendar/delete', { ssid: ssid[who], id: 1 })).toMatchObject({
        status: 403,
      });
    }
    expect((await call(ctx.app, 'calendar', { ssid: 'nobody' })).status).toBe(401);
    expect((await list('admin')).map((day) => day.start)).not.toContain('2099-05-01');
  });

  it('answers bad dates, an end before the start and overlapping closings with a Japanese 400', async () => {
    const refused = async (body: Record<string, unknown>, message: string) => {
      const reply = await add('admin', body);
      expect(reply.status).toBe(400);
      expect(reply.body).toMatchObject({ error: message });
    };
    await refused({ start: '2098-02-30', end: '2098-03-01' }, e.badDate);
    await refused({ start: 'あした', end: '2098-03-01' }, e.badDate);
    await refused({ start: '2098-03-05', end: '2098-03-01' }, e.endBeforeStart);
    await refused({ start: '2098-01-01', end: '2098-04-01' }, e.tooLong);
    await refused({ name: '', start: '2098-03-01', end: '2098-03-01' }, e.nameRequired);
    // Sharing one day with お盆 (08-13 to 08-16), at either end.
    expect((await add('admin', { name: 'お盆', start: '2098-08-13', end: '2098-08-16' })).status).toBe(200);
    await refused({ name: '夏休み', start: '2098-08-16', end: '2098-08-20' }, e.overlaps('お盆'));
    await refused({ name: '夏休み', start: '2098-08-01', end: '2098-08-13' }, e.overlaps('お盆'));
    expect((await add('admin', { name: '夏休み', start: '2098-08-17', end: '2098-08-20' })).status).toBe(200);
  });

  it('refuses two overlapping closings added at once, keeping one', async () => {
    const replies = await Promise.all([
      add('admin', { name: 'A', start: '2097-10-01', end: '2097-10-03' }),
      add('owner', { name: 'B', start: '2097-10-03', end: '2097-10-05' }),
    ]);
    expect(replies.map((reply) => reply.status).sort()).toEqual([200, 400]);
    expect((await list('man')).filter((day) => day.start.startsWith('2097-10'))).toHaveLength(1);
  });

  it('deletes a closing; a second delete is a Japanese 404', async () => {
    const added = await add('admin', { name: '創立記念日', start: '2096-06-01', end: '2096-06-01' });
    const { id } = added.body as { id: number };
    expect((await list('man')).map((day) => day.id)).toContain(id);
    expect(await call(ctx.app, 'calendar/delete', { ssid: ssid.owner, id })).toMatchObject({ status: 200 });
    expect((await list('man')).map((day) => day.id)).not.toContain(id);
    const again = await call(ctx.app, 'calendar/delete', { ssid: ssid.admin, id });
    expect(again).toMatchObject({ status: 404, body: { error: e.notFound } });
  });

  it('no longer lists a closing once it is over', async () => {
    expect((await add('admin', { name: '去年', start: '2020-12-29', end: '2021-01-03' })).status).toBe(200);
    expect((await list('man')).map((day) => day.name)).not.toContain('去年');
  });
});
