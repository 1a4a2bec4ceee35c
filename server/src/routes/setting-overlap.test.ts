import {
  AuditLogReply,
  SettingListReply,
  SettingOverlapRefusal,
  SettingUpdateReply,
  jaMember,
  slotLabel,
  slotOf,
} from '@enishi/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTestContext, createUser, login, type TestContext, type TestUser } from '../test/app.js';

const DAY = 24 * 60 * 60 * 1000;
/** A Japan-time slot `days` ahead at `time` (HH:mm). */
const at = (days: number, time: string) =>
  `${slotOf(new Date(Date.now() + days * DAY)).slice(0, 10)}T${time}`;

/*
 * No double booking (product.md §18.5): each test works on days of its own, so the settings one confirms
 * never meet another test's.
 */
describe('no double booking (/api/setting/*)', () => {
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
      ['owner', 2, '縁 オーナー'],
    ];
    for (const [key, role, name] of people) {
      who[key] = await createUser(ctx.app, { loginId: `dbl-${key}`, role, name });
      ssid[key] = await login(ctx.app, who[key]!);
    }
  });
  afterAll(() => ctx.close());

  /** A request of `man` for `woman` with these three slots; its id. */
  const ask = async (man: string, woman: string, slots: [string, string, string]) => {
    const reply = await call(ctx.app, 'setting/add', {
      ssid: ssid[man],
      women_id: who[woman]!.uid,
      preferred1: slots[0],
      preferred2: slots[1],
      preferred3: slots[2],
    });
    expect(reply.status).toBe(200);
    return (reply.body as { id: number }).id;
  };
  const arrange = (id: number, slot: number, extra: Record<string, unknown> = {}) =>
    call(ctx.app, 'setting/update', {
      ssid: ssid.staff,
      id,
      status: 'arranged',
      slot,
      place: '銀座',
      ...extra,
    });
  /** A setting of `man` and `woman` confirmed at `when` (its first slot). */
  const confirmed = async (man: string, woman: string, when: string, days: number) => {
    const id = await ask(man, woman, [when, at(days + 30, '10:00'), at(days + 31, '10:00')]);
    expect((await arrange(id, 1)).status).toBe(200);
    return id;
  };
  const staffRow = async (id: number) => {
    const reply = await call(ctx.app, 'setting/list', { ssid: ssid.staff, page: 0, status: 'requested' });
    return SettingListReply.parse(reply.body).rows.find((row) => row.id === id)!;
  };
  const overrides = async () => {
    const reply = await call(ctx.app, 'auditlog', { ssid: ssid.owner, action: 'update' });
    return AuditLogReply.parse(reply.body).rows.filter((row) => row.changes?.overlapReason);
  };

  it('warns staff on a request that overlaps his confirmed setting, and refuses to confirm it without a reason', async () => {
    const other = await confirmed('taro', 'hanako', at(3, '19:00'), 3);
    // 20:59 is within two hours of 19:00; 21:00 and 17:00 are exactly two hours away.
    const id = await ask('taro', 'yumi', [at(3, '20:59'), at(3, '21:00'), at(3, '17:00')]);

    expect((await staffRow(id)).overlaps).toEqual([
      {
        slot: 1,
        who: 'man',
        other: { id: other, at: at(3, '19:00'), men: '山田 太郎', women: '佐藤 花子' },
      },
    ]);

    const refused = await arrange(id, 1);
    expect(refused.status).toBe(409);
    const body = SettingOverlapRefusal.parse(refused.body);
    expect(body.error).toBe(
      jaMember.setting.errors.overlap('山田 太郎', slotLabel(at(3, '19:00')), '佐藤 花子', other),
    );
    expect(body.overlaps.map((overlap) => overlap.other.id)).toEqual([other]);
    // Nothing was decided: the request still waits.
    expect((await staffRow(id)).status).toBe('requested');
    // A blank reason is no reason.
    expect((await arrange(id, 1, { overlap_reason: '   ' })).status).toBe(409);
  });

  it('confirms a slot exactly two hours away without a reason, and logs nothing', async () => {
    await confirmed('taro', 'hanako', at(5, '19:00'), 5);
    const before = (await overrides()).length;
    const later = await ask('taro', 'yumi', [at(5, '21:00'), at(5, '20:00'), at(5, '18:00')]);
    const earlier = await ask('jiro', 'hanako', [at(5, '17:00'), at(5, '20:00'), at(5, '18:00')]);
    expect((await staffRow(later)).overlaps?.map((o) => o.slot)).toEqual([2, 3]);
    expect((await arrange(later, 1)).status).toBe(200);
    expect((await arrange(earlier, 1)).status).toBe(200);
    expect((await overrides()).length).toBe(before);
  });

  it('confirms with a reason and keeps the confirmation and its reason in the audit log', async () => {
    const other = await confirmed('taro', 'hanako', at(7, '19:00'), 7);
    const id = await ask('taro', 'yumi', [at(7, '19:30'), at(8, '19:00'), at(9, '19:00')]);
    const reply = await arrange(id, 1, { overlap_reason: '本人から同日2件の希望あり' });
    expect(reply.status).toBe(200);
    expect(SettingUpdateReply.parse(reply.body).row).toMatchObject({ status: 'arranged', slot: 1 });

    const row = (await overrides()).find(
      (each) => (each.changes?.setting?.[1] as { id?: number })?.id === id,
    );
    expect(row).toMatchObject({
      action: 'update',
      actor: { uid: who.staff!.uid, name: '受付 スタッフ' },
      target: { uid: who.taro!.uid, role: 101, name: '山田 太郎' },
      changes: {
        setting: [null, { id, at: at(7, '19:30'), man: '山田 太郎', woman: '田中 由美' }],
        overlaps: [null, [{ id: other, at: at(7, '19:00'), man: '山田 太郎', woman: '佐藤 花子' }]],
        overlapReason: [null, '本人から同日2件の希望あり'],
      },
    });
  });

  it('counts the same woman too, and leaves another man and woman alone', async () => {
    const other = await confirmed('taro', 'hanako', at(11, '19:00'), 11);
    const hers = await ask('jiro', 'hanako', [at(11, '19:30'), at(12, '19:00'), at(13, '19:00')]);
    const neither = await ask('jiro', 'yumi', [at(11, '19:00'), at(12, '19:30'), at(13, '19:30')]);

    expect((await staffRow(hers)).overlaps).toEqual([
      {
        slot: 1,
        who: 'woman',
        other: { id: other, at: at(11, '19:00'), men: '山田 太郎', women: '佐藤 花子' },
      },
    ]);
    const refused = await arrange(hers, 1);
    expect(refused).toMatchObject({
      status: 409,
      body: {
        error: jaMember.setting.errors.overlap('佐藤 花子', slotLabel(at(11, '19:00')), '山田 太郎', other),
      },
    });
    expect((await staffRow(neither)).overlaps).toEqual([]);
    expect((await arrange(neither, 1)).status).toBe(200);
  });

  it('does not count cancelled, declined or waiting requests, only confirmed settings', async () => {
    const when = at(15, '19:00');
    const cancelled = await ask('taro', 'hanako', [when, at(16, '10:00'), at(17, '10:00')]);
    await call(ctx.app, 'setting/update', { ssid: ssid.taro, id: cancelled, status: 'cancelled' });
    const declined = await ask('taro', 'hanako', [when, at(16, '11:00'), at(17, '11:00')]);
    await call(ctx.app, 'setting/update', {
      ssid: ssid.staff,
      id: declined,
      status: 'declined',
      reason: '都合',
    });
    await ask('taro', 'hanako', [when, at(16, '12:00'), at(17, '12:00')]);

    const id = await ask('taro', 'yumi', [at(15, '19:30'), at(16, '19:00'), at(17, '19:00')]);
    expect((await staffRow(id)).overlaps).toEqual([]);
    expect((await arrange(id, 1)).status).toBe(200);
  });

  it("accepts a man's request that overlaps his confirmed setting, and shows members no overlaps", async () => {
    await confirmed('jiro', 'yumi', at(19, '19:00'), 19);
    const id = await ask('jiro', 'hanako', [at(19, '19:00'), at(20, '19:00'), at(21, '19:00')]);
    expect((await staffRow(id)).overlaps).toHaveLength(1);
    const mine = await call(ctx.app, 'setting/list', { ssid: ssid.jiro, page: 0 });
    const rows = (mine.body as { rows: Record<string, unknown>[] }).rows;
    expect(rows.find((row) => row.id === id)).not.toHaveProperty('overlaps');
  });
});
