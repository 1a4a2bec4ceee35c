import { MessagesReply, SettingListReply, SettingUpdateReply, slotOf, jaMember } from '@enishi/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTestContext, createUser, login, type TestContext, type TestUser } from '../test/app.js';

const DAY = 24 * 60 * 60 * 1000;
/** A Japan-time slot `days` ahead at `hour`:00. */
const ahead = (days: number, hour = 19) =>
  `${slotOf(new Date(Date.now() + days * DAY)).slice(0, 10)}T${hour}:00`;

describe('setting requests (/api/setting/*)', () => {
  let ctx: TestContext;
  const who: Record<string, TestUser> = {};
  const ssid: Record<string, string> = {};

  beforeAll(async () => {
    ctx = await createTestContext({ env: { LOG_LEVEL: process.env.DBG ? 'error' : 'silent' } });
    const people: [string, number, string][] = [
      ['taro', 101, '山田 太郎'],
      ['jiro', 101, '鈴木 次郎'],
      ['hanako', 201, '佐藤 花子'],
      ['yumi', 201, '田中 由美'],
      ['staff', 3, '受付 スタッフ'],
    ];
    for (const [key, role, name] of people) {
      who[key] = await createUser(ctx.app, { loginId: `set-${key}`, role, name });
      ssid[key] = await login(ctx.app, who[key]!);
    }
  });
  afterAll(() => ctx.close());

  const add = (caller: string, body: Record<string, unknown>) =>
    call(ctx.app, 'setting/add', { ssid: ssid[caller], ...body });
  const request = (caller: string, woman: string, extra: Record<string, unknown> = {}) =>
    add(caller, {
      women_id: who[woman]!.uid,
      preferred1: ahead(3),
      preferred2: ahead(4),
      preferred3: ahead(5, 12),
      note: '土曜日が嬉しいです',
      ...extra,
    });
  const list = async (caller: string, body: Record<string, unknown> = {}) => {
    const reply = await call(ctx.app, 'setting/list', { ssid: ssid[caller], page: 0, ...body });
    expect(reply.status).toBe(200);
    return SettingListReply.parse(reply.body);
  };
  const update = (caller: string, body: Record<string, unknown>) =>
    call(ctx.app, 'setting/update', { ssid: ssid[caller], ...body });
  const messagesOf = async (caller: string, id: number) => {
    const reply = await call(ctx.app, 'messages', { ssid: ssid[caller], id });
    return MessagesReply.parse(reply.body).rows.flatMap((group) => group.messages);
  };
  const deskOf = async (caller: string) => {
    const reply = await call(ctx.app, 'conversations', {
      ssid: ssid[caller],
      type: 'staff',
      search: '',
      page: 0,
    });
    return (reply.body as { rows: { id: number }[] }).rows[0]!.id;
  };

  it('lets a man ask and lists it for him and staff, not for the woman or another man', async () => {
    const reply = await request('taro', 'hanako');
    expect(reply.status).toBe(200);
    const { id } = reply.body as { id: number };

    // Other tests of this file leave their own requests: this one is looked for by its id.
    const mine = await list('taro');
    const row = mine.rows.find((each) => each.id === id);
    expect([row?.status, row?.women.name, row?.note]).toEqual([
      'requested',
      '佐藤 花子',
      '土曜日が嬉しいです',
    ]);
    expect(row!.preferred).toEqual([ahead(3), ahead(4), ahead(5, 12)]);
    expect(mine.requested).toBe(0);
    const staff = await list('staff');
    expect(staff.rows.some((each) => each.id === id)).toBe(true);
    expect(staff.requested).toBeGreaterThanOrEqual(1);
    expect((await list('hanako')).rows.some((each) => each.id === id)).toBe(false);
    expect((await list('jiro')).rows.some((each) => each.id === id)).toBe(false);
    // The back office's member panel: staff narrow to one man or woman; a member cannot widen their list.
    expect((await list('staff', { member: who.hanako!.uid })).rows.map((row) => row.id)).toContain(id);
    expect((await list('staff', { member: who.taro!.uid })).rows.map((row) => row.id)).toContain(id);
    expect((await list('staff', { member: who.jiro!.uid })).rows.some((row) => row.id === id)).toBe(false);
    expect((await list('jiro', { member: who.taro!.uid })).rows.some((row) => row.id === id)).toBe(false);
  });

  it.each([
    ['a slot in the past', { preferred1: '2020-01-01T10:00' }, jaMember.setting.errors.slotPast],
    ['two slots the same', { preferred2: ahead(3) }, jaMember.setting.errors.slotsSame],
    ['a date that does not exist', { preferred3: '2031-02-30T10:00' }, jaMember.setting.errors.slotInvalid],
    ['a missing slot', { preferred3: '' }, jaMember.setting.errors.slotRequired],
    ['a note too long', { note: 'あ'.repeat(501) }, jaMember.setting.errors.noteTooLong],
  ])('refuses %s with a Japanese 400 and stores nothing', async (_case, extra, message) => {
    const before = (await list('jiro')).rows.length;
    const reply = await request('jiro', 'yumi', extra);
    expect(reply).toMatchObject({ status: 400, body: { error: message } });
    expect((await list('jiro')).rows.length).toBe(before);
  });

  it('refuses a request for a man or a staff member, and from anyone but a man', async () => {
    expect(
      (
        await add('taro', {
          women_id: who.jiro!.uid,
          preferred1: ahead(3),
          preferred2: ahead(4),
          preferred3: ahead(5),
        })
      ).body,
    ).toEqual({ error: jaMember.setting.errors.notWoman });
    for (const caller of ['hanako', 'staff']) {
      expect((await request(caller, 'yumi')).status).toBe(403);
    }
  });

  it('arranges a slot: the group talk is made once, reused, and gets one announcement; the woman then sees it', async () => {
    const first = (await request('jiro', 'yumi')).body as { id: number };
    const second = (await request('jiro', 'yumi', { preferred1: ahead(10) })).body as { id: number };

    expect((await update('taro', { id: first.id, status: 'arranged', slot: 2, place: '銀座' })).status).toBe(
      404,
    );
    expect((await update('jiro', { id: first.id, status: 'arranged', slot: 2, place: '銀座' })).status).toBe(
      403,
    );
    expect((await update('staff', { id: first.id, status: 'arranged', place: '銀座' })).body).toEqual({
      error: jaMember.setting.errors.slotChoice,
    });
    expect((await update('staff', { id: first.id, status: 'arranged', slot: 2 })).body).toEqual({
      error: jaMember.setting.errors.placeRequired,
    });

    const arranged = await update('staff', {
      id: first.id,
      status: 'arranged',
      slot: 2,
      place: '銀座 〇〇ホテル',
    });
    expect(arranged.status).toBe(200);
    const row = SettingUpdateReply.parse(arranged.body).row;
    expect(row).toMatchObject({ status: 'arranged', slot: 2, place: '銀座 〇〇ホテル' });
    const talk = row.conversation_id!;
    expect(talk).toBeGreaterThan(0);
    // Deciding again is refused and posts nothing more.
    expect((await update('staff', { id: first.id, status: 'declined', reason: '重複' })).status).toBe(409);

    const again = SettingUpdateReply.parse(
      (await update('staff', { id: second.id, status: 'arranged', slot: 1, place: '新宿' })).body,
    ).row;
    expect(again.conversation_id).toBe(talk);

    // The announcement is pinned too, so it shows in the pinned group and in its day: one message either way.
    const messages = await messagesOf('yumi', talk);
    const announcements = new Set(messages.filter((m) => m.message.includes('銀座')).map((m) => m.id));
    expect(announcements.size).toBe(1);
    const seen = await list('yumi');
    expect(seen.rows.map((each) => each.id).sort()).toEqual([first.id, second.id].sort());
    expect(seen.rows.every((each) => each.status === 'arranged')).toBe(true);
    expect((await list('yumi', { status: 'requested' })).rows).toEqual([]);
  });

  it('declines with a reason, and the man reads it in his desk talk', async () => {
    const { id } = (await request('taro', 'yumi')).body as { id: number };
    expect((await update('staff', { id, status: 'declined' })).body).toEqual({
      error: jaMember.setting.errors.reasonRequired,
    });
    const reply = await update('staff', { id, status: 'declined', reason: 'ご希望の日程が合いませんでした' });
    expect(SettingUpdateReply.parse(reply.body).row).toMatchObject({ status: 'declined' });
    const desk = await deskOf('taro');
    const texts = (await messagesOf('taro', desk)).map((message) => message.message);
    expect(texts).toContain(jaMember.setting.declinedMessage('田中 由美', 'ご希望の日程が合いませんでした'));
    expect((await list('yumi')).rows.some((row) => row.id === id)).toBe(false);
  });

  it('lets a man cancel only his own request, and only while requested', async () => {
    const { id } = (await request('taro', 'hanako', { preferred1: ahead(20) })).body as { id: number };
    expect((await update('jiro', { id, status: 'cancelled' })).status).toBe(404);
    expect((await update('staff', { id, status: 'cancelled' })).status).toBe(403);
    expect(
      SettingUpdateReply.parse((await update('taro', { id, status: 'cancelled' })).body).row.status,
    ).toBe('cancelled');
    expect((await update('taro', { id, status: 'cancelled' })).body).toEqual({
      error: jaMember.setting.errors.notRequested,
    });
    expect((await list('taro', { status: 'cancelled' })).rows.map((row) => row.id)).toEqual([id]);
  });

  it('answers 401 without a session and 400 to unknown fields', async () => {
    expect((await call(ctx.app, 'setting/list', { page: 0 })).status).toBe(401);
    expect((await call(ctx.app, 'setting/list', { ssid: ssid.staff, page: 0, extra: 1 })).status).toBe(400);
  });
});
