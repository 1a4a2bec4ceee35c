import { jaMember, ScheduledReply } from '@enishi/contract';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { beforeEach, describe, expect, it } from 'vitest';
import { rowsOf } from '../db/raw.js';
import { MessageBatchRepository } from '../repositories/message-batch-repository.js';
import { call } from '../test/app.js';
import { useBroadcastClub } from '../test/broadcast-club.js';
import { imageDataUrl } from '../test/content.js';
import { actorOf, deskOf } from '../test/talk.js';

const HOUR = 60 * 60 * 1000;
const DAY = 24 * HOUR;
const { broadcast } = jaMember;

/** ISO 8601 in Japan time, as the form sends it. */
const jst = (ms: number) => new Date(ms + 9 * HOUR).toISOString().replace(/\.\d+Z$/, '+09:00');

// Scheduled bulk sends (product.md §4.6): scheduling, its checks, edit and cancel, sending once on time.
describe('scheduled bulk send', () => {
  // Each test counts what its own sends stored: a club of its own.
  const club = useBroadcastClub('each');
  /** The time of the apps below: tests move it instead of waiting. */
  let now: number;
  let app: FastifyInstance;

  beforeEach(async () => {
    now = Date.now();
    app = await club.ctx.buildApp({}, () => now);
  });

  const schedule = (body: Record<string, unknown>, on: FastifyInstance = app) =>
    call(on, 'messages/send', {
      ssid: club.ssid.staff,
      users: [club.men[0]!.uid, club.men[1]!.uid],
      message: '予約のお知らせです',
      image: [],
      ...body,
    });
  const pending = async (type: 1 | 2 = 1) => {
    const reply = await call(app, 'broadcasts/scheduled', { ssid: club.ssid.staff, type });
    expect(reply.status).toBe(200);
    return ScheduledReply.parse(reply.body).rows;
  };
  /** How many copies of `text` each of the first two men has. */
  const copies = async (text: string) =>
    Promise.all(
      club.menSsid
        .slice(0, 2)
        .map(async (man) => (await club.talkOf(man)).filter((m) => m.message === text).length),
    );

  it('stores a send with send_at, answers as a send made now, and lists it until it goes', async () => {
    const reply = await schedule({ send_at: jst(now + HOUR) });
    expect(reply).toMatchObject({ status: 200, body: { status: 'OK', count: 2 } });
    // Nothing reaches the members before its time.
    expect(await copies('予約のお知らせです')).toEqual([0, 0]);
    expect(await club.history(1)).toEqual([]);
    expect(await pending()).toEqual([
      {
        id: expect.any(Number),
        type: 1,
        message: '予約のお知らせです',
        image_count: 0,
        name: club.users.staff.name,
        count: 2,
        send_at: new Date(Math.floor((now + HOUR) / 1000) * 1000).toISOString(),
        state: 'scheduled',
      },
    ]);
    expect(await pending(2)).toEqual([]);

    await app.services.broadcastScheduler.tick();
    expect(await copies('予約のお知らせです')).toEqual([0, 0]);

    now += HOUR;
    await app.services.broadcastScheduler.tick();
    expect(await copies('予約のお知らせです')).toEqual([1, 1]);
    expect(await pending()).toEqual([]);
    expect(await club.history(1)).toMatchObject([
      { message: '予約のお知らせです', name: club.users.staff.name, count: 2, delivered: 2, read: 0 },
    ]);
  });

  it('without send_at sends at once, as before', async () => {
    const reply = await schedule({});
    expect(reply.body).toEqual({ status: 'OK', count: 2 });
    expect(await copies('予約のお知らせです')).toEqual([1, 1]);
    expect(await pending()).toEqual([]);
  });

  it.each([
    ['a time gone by', () => jst(now - 10 * 60 * 1000), broadcast.sendAtPast],
    ['more than 90 days ahead', () => jst(now + 91 * DAY), broadcast.sendAtTooFar],
    ['no offset', () => jst(now + HOUR).replace('+09:00', ''), broadcast.sendAtMalformed],
    ['a day that does not exist', () => '2026-13-45T10:00:00+09:00', broadcast.sendAtMalformed],
    ['not a string', () => 1767225600000, broadcast.sendAtMalformed],
  ])('refuses %s with a Japanese 400, storing nothing', async (_name, sendAt, message) => {
    const reply = await schedule({ send_at: sendAt() });
    expect(reply.status).toBe(400);
    expect(JSON.stringify(reply.body)).toContain(message);
    expect(await pending()).toEqual([]);
  });

  it('takes a time picked a moment ago (a few minutes of grace) and sends it at the next look', async () => {
    expect((await schedule({ send_at: jst(now - 60 * 1000) })).status).toBe(200);
    await app.services.broadcastScheduler.tick();
    expect(await copies('予約のお知らせです')).toEqual([1, 1]);
  });

  it('refuses members and checks recipients when scheduling, as a send made now', async () => {
    const member = await call(app, 'messages/send', {
      ssid: club.ssid.man,
      users: [club.men[1]!.uid],
      message: 'x',
      send_at: jst(now + HOUR),
    });
    expect(member.status).toBe(403);
    expect((await call(app, 'broadcasts/scheduled', { ssid: club.ssid.man, type: 1 })).status).toBe(403);
    const mixed = await schedule({ users: [club.men[0]!.uid, club.women[0]!.uid], send_at: jst(now + HOUR) });
    expect(mixed.status).toBe(400);
    expect(JSON.stringify(mixed.body)).toContain(broadcast.wrongGroup);
    expect(await pending()).toEqual([]);
  });

  it('edits the time and text before it goes, and refuses a change once it is sent (409)', async () => {
    await schedule({ send_at: jst(now + HOUR) });
    const [row] = await pending();
    const update = (body: Record<string, unknown>) =>
      call(app, 'broadcasts/scheduled/update', { ssid: club.ssid.staff, id: row!.id, ...body });
    expect((await update({ send_at: jst(now + 2 * HOUR), message: '時間を変えました' })).body).toEqual({
      status: 'OK',
    });
    expect(await pending()).toMatchObject([{ message: '時間を変えました', send_at: expect.any(String) }]);
    expect(Date.parse((await pending())[0]!.send_at)).toBe(Math.floor((now + 2 * HOUR) / 1000) * 1000);
    // The same checks as when scheduling.
    const past = await update({ send_at: jst(now - HOUR), message: 'x' });
    expect(past.status).toBe(400);
    expect(JSON.stringify(past.body)).toContain(broadcast.sendAtPast);

    // At the old time nothing goes; at the new one the new text does.
    now += HOUR;
    await app.services.broadcastScheduler.tick();
    expect(await copies('予約のお知らせです')).toEqual([0, 0]);
    now += HOUR;
    await app.services.broadcastScheduler.tick();
    expect(await copies('時間を変えました')).toEqual([1, 1]);

    const late = await update({ send_at: jst(now + HOUR), message: 'もう一度' });
    expect(late.status).toBe(409);
    expect(late.body).toMatchObject({ error: broadcast.scheduledGone });
    const cancel = await call(app, 'broadcasts/scheduled/cancel', { ssid: club.ssid.staff, id: row!.id });
    expect(cancel.status).toBe(409);
    expect(
      (await call(app, 'broadcasts/scheduled/cancel', { ssid: club.ssid.staff, id: 987654 })).status,
    ).toBe(404);
  });

  it('cancels a send before it goes: it never reaches anyone, and cannot be changed after', async () => {
    const png = await imageDataUrl('png', { width: 40, height: 30 });
    await schedule({ send_at: jst(now + HOUR), image: [png] });
    const [row] = await pending();
    expect(row).toMatchObject({ image_count: 1 });
    const cancel = await call(app, 'broadcasts/scheduled/cancel', { ssid: club.ssid.staff, id: row!.id });
    expect(cancel.body).toEqual({ status: 'OK' });
    expect(await pending()).toEqual([]);
    now += 2 * HOUR;
    await app.services.broadcastScheduler.tick();
    expect(await copies('予約のお知らせです')).toEqual([0, 0]);
    const again = await call(app, 'broadcasts/scheduled/update', {
      ssid: club.ssid.staff,
      id: row!.id,
      send_at: jst(now + HOUR),
      message: 'x',
    });
    expect(again.status).toBe(409);
  });

  it('goes out once when two instances look at the same moment', async () => {
    const other = await club.ctx.buildApp({}, () => now);
    await schedule({ send_at: jst(now + HOUR), message: '一度だけ' });
    await schedule({ send_at: jst(now + HOUR), message: '二つ目も一度だけ' }, other);
    now += HOUR;
    await Promise.all([
      app.services.broadcastScheduler.tick(),
      other.services.broadcastScheduler.tick(),
      app.services.broadcasts.sendDue(),
      other.services.broadcasts.sendDue(),
    ]);
    expect(await copies('一度だけ')).toEqual([1, 1]);
    expect(await copies('二つ目も一度だけ')).toEqual([1, 1]);
    expect(await club.history(1)).toHaveLength(2);
  });

  it('is sent by an instance that starts after its time (none ran when it fell due)', async () => {
    await schedule({ send_at: jst(now + HOUR), message: '再起動のあとに' });
    await app.close();
    now += 3 * HOUR;
    const restarted = await club.ctx.buildApp({}, () => now);
    // No look but the one at start.
    await expect.poll(() => copies('再起動のあとに')).toEqual([1, 1]);
    expect(await club.history(1)).toHaveLength(1);
    app = restarted;
  });

  it('is taken over from an instance that died mid-send, and the dead one can no longer store it', async () => {
    await schedule({ send_at: jst(now + HOUR), message: '途中で止まった' });
    const [row] = await pending();
    // An instance claimed it and died before its statement committed.
    now += HOUR;
    await club.ctx.database.db.execute(
      sql`update scheduled_broadcasts set state = 'sending', claim = 'dead', claimed_at = ${new Date(now).toISOString()} where id = ${row!.id}`,
    );
    expect(await pending()).toMatchObject([{ state: 'sending' }]);
    // Sending: no longer changeable.
    const cancel = await call(app, 'broadcasts/scheduled/cancel', { ssid: club.ssid.staff, id: row!.id });
    expect(cancel.status).toBe(409);
    await app.services.broadcastScheduler.tick();
    expect(await copies('途中で止まった')).toEqual([0, 0]);

    // Two minutes on, its claim is stale: another look takes it over and sends it.
    now += 2 * 60 * 1000 + 1;
    await app.services.broadcastScheduler.tick();
    expect(await copies('途中で止まった')).toEqual([1, 1]);

    // The dead instance's statement, had it run late, stores nothing.
    const desks = await Promise.all(club.menSsid.slice(0, 2).map((man) => deskOf(app, man)));
    const history = rowsOf<{ id: number }>(
      await club.ctx.database.db.execute(sql`select id from conversations where kind = 'sendmen'`),
    )[0]!;
    const late = await new MessageBatchRepository(club.ctx.database.db, club.ctx.database.ordered).insertBulk(
      {
        type: 1,
        senderId: club.users.staff.uid,
        body: '途中で止まった',
        historyConversationId: Number(history.id),
        deskIds: desks,
        images: [],
        now: new Date(now),
        scheduled: { id: row!.id, claim: 'dead' },
      },
    );
    expect(late.filter((outcome) => outcome.created)).toEqual([]);
    expect(await copies('途中で止まった')).toEqual([1, 1]);
  });

  it('shows each send’s figures: recipients, delivered, read', async () => {
    await schedule({ send_at: jst(now + HOUR), message: '数えます' });
    now += HOUR;
    await app.services.broadcastScheduler.tick();
    expect((await club.history(1))[0]).toMatchObject({ count: 2, delivered: 2, read: 0, pushed: 0 });
    const actor = await actorOf(app, club.menSsid[0]!);
    await app.services.messages.markRead(actor, await deskOf(app, club.menSsid[0]!));
    expect((await club.history(1))[0]).toMatchObject({ count: 2, delivered: 2, read: 1, pushed: 0 });
  });

  it('leaves out members gone since it was scheduled; recipients still counts those chosen', async () => {
    await schedule({ send_at: jst(now + HOUR), message: '退会のあと' });
    expect((await call(app, 'deluser', { ssid: club.ssid.admin, uid: club.men[1]!.uid })).status).toBe(200);
    now += HOUR;
    await app.services.broadcastScheduler.tick();
    expect((await club.talkOf(club.menSsid[0]!)).map((m) => m.message)).toEqual(['退会のあと']);
    expect((await club.history(1))[0]).toMatchObject({ count: 2, delivered: 1 });
  });
});
