import { AuditLogReply, CalendarReply, DEFAULT_HOURS, ja, jaMember } from '@enishi/contract';
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

  describe('business hours per weekday', () => {
    const saveHours = (who: RoleName, hours: unknown) =>
      call(ctx.app, 'calendar/hours', { ssid: ssid[who], hours });
    const hoursOf = async (who: RoleName) => {
      const reply = await call(ctx.app, 'calendar', { ssid: ssid[who] });
      return CalendarReply.parse(reply.body).hours;
    };
    const calendarAudit = async () => {
      const reply = await call(ctx.app, 'auditlog', { ssid: ssid.owner, page: 0, action: 'calendar' });
      expect(reply.status).toBe(200);
      return AuditLogReply.parse(reply.body).rows;
    };
    const week = (change: Record<number, object>) =>
      DEFAULT_HOURS.map((day, weekday) => ({ ...day, ...change[weekday] }));

    it('starts at today’s hours; the admin saves others, which anyone signed in reads, audited', async () => {
      expect(await hoursOf('man')).toEqual(DEFAULT_HOURS);
      const hours = week({ 0: { open: true, opens: '10:00', closes: '17:00' }, 6: { open: false } });
      expect(await saveHours('admin', hours)).toMatchObject({ status: 200, body: { status: 'OK' } });
      for (const who of ['man', 'woman', 'staff'] as const) expect(await hoursOf(who)).toEqual(hours);
      const rows = (await calendarAudit()).filter((row) => row.target.name === jaMember.calendar.audit.hours);
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({
        action: 'calendar',
        actor: { name: expect.any(String) },
        changes: { hours: [DEFAULT_HOURS, hours] },
      });
      expect(await saveHours('owner', DEFAULT_HOURS)).toMatchObject({ status: 200 });
      expect(await hoursOf('woman')).toEqual(DEFAULT_HOURS);
    });

    it('refuses bad hours with a Japanese 400, and other staff and members with a 403', async () => {
      const refused = async (hours: unknown, error: string) =>
        expect(await saveHours('admin', hours)).toMatchObject({ status: 400, body: { error } });
      await refused(week({ 2: { opens: '25:00' } }), e.badTime);
      await refused(week({ 2: { closes: '8時' } }), e.badTime);
      await refused(week({ 3: { opens: '20:00', closes: '12:00' } }), e.closesBeforeOpens('水'));
      await refused(week({ 3: { opens: '12:00', closes: '12:00' } }), e.closesBeforeOpens('水'));
      await refused(
        DEFAULT_HOURS.map((day) => ({ ...day, open: false })),
        e.noOpenDay,
      );
      await refused(DEFAULT_HOURS.slice(0, 6), ja.errors.badRequest);
      for (const who of ['staff', 'man', 'woman'] as const)
        expect((await saveHours(who, DEFAULT_HOURS)).status).toBe(403);
      expect(await hoursOf('admin')).toEqual(DEFAULT_HOURS);
    });

    it('audits a closing added and deleted, naming it', async () => {
      const added = await add('admin', { name: '棚卸し', start: '2095-02-10', end: '2095-02-11' });
      const { id } = added.body as { id: number };
      await call(ctx.app, 'calendar/delete', { ssid: ssid.admin, id });
      const closing = { name: '棚卸し', start: '2095-02-10', end: '2095-02-11' };
      const rows = (await calendarAudit()).filter((row) => JSON.stringify(row.changes).includes('棚卸し'));
      expect(rows.map((row) => row.changes)).toEqual([
        { closing: [closing, null] },
        { closing: [null, closing] },
      ]);
      expect(rows.every((row) => row.target.name === jaMember.calendar.audit.closing)).toBe(true);
    });
  });
});
