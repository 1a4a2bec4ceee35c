import { ja, RecipientsReply, jaMember } from '@enishi/contract';
import { describe, expect, it } from 'vitest';
import { call, callRaw } from '../test/app.js';
import { useBroadcastClub } from '../test/broadcast-club.js';
import { MEMBER_ROLES, STAFF_ROLES } from '../test/content.js';

// Who may call the bulk send, and what it refuses (broadcast-sending.test.ts: what a send stores).
describe('bulk send', () => {
  describe('who may call what', () => {
    // Nothing here is sent, so these tests share one club.
    const club = useBroadcastClub('all');

    it.each(['messages/send', 'broadcasts', 'broadcasts/recipients'])(
      '%s answers 401 without a session',
      async (name) => {
        for (const body of [{}, { ssid: 'made-up' }]) {
          expect(
            await call(club.ctx.app, name, { ...body, type: 1, users: [1], message: 'x' }),
          ).toMatchObject({
            status: 401,
            body: { error: ja.errors.unauthorized },
          });
        }
      },
    );

    it.each(MEMBER_ROLES)('member %s may not send, see the history or list recipients (403)', async (who) => {
      const own = who === 'man' ? club.men : club.women;
      expect(await club.send(who, { users: own.map((user) => user.uid) })).toMatchObject({
        status: 403,
        body: { error: ja.errors.forbidden },
      });
      expect((await call(club.ctx.app, 'broadcasts', { ssid: club.ssid[who], type: 1 })).status).toBe(403);
      expect(
        (await call(club.ctx.app, 'broadcasts/recipients', { ssid: club.ssid[who], type: 1 })).status,
      ).toBe(403);
      expect(await club.talkOf(club.ssid.man)).toEqual([]);
    });

    it.each(STAFF_ROLES)('staff role %s lists the recipients of each group', async (who) => {
      const menRows = RecipientsReply.parse(
        (await call(club.ctx.app, 'broadcasts/recipients', { ssid: club.ssid[who], type: 1 })).body,
      ).rows;
      // In あいうえお order of the reading, as every list of people (product.md §11.5); these men have none,
      // so by name (readings themselves: member-admin-routes-kana.test.ts).
      const byName = (people: { uid: number; name: string }[]) =>
        [...people]
          .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : a.uid - b.uid))
          .map((person) => person.uid);
      expect(menRows.map((row) => row.uid)).toEqual(byName(club.men));
      expect(menRows.find((row) => row.uid === club.men[1]!.uid)).toEqual({
        uid: club.men[1]!.uid,
        name: club.men[1]!.name,
        rank: 3,
      });
      const womenRows = RecipientsReply.parse(
        (await call(club.ctx.app, 'broadcasts/recipients', { ssid: club.ssid[who], type: '2' })).body,
      ).rows;
      expect(womenRows.map((row) => row.uid)).toEqual(byName(club.women));
    });
  });

  describe('validation', () => {
    // Every send here is refused, so these tests share one club.
    const club = useBroadcastClub('all');

    it.each([
      [{ users: [] }, 400, jaMember.broadcast.noRecipients],
      [{ users: 'all' }, 400, jaMember.broadcast.noRecipients],
      [{ message: '', image: [] }, 400, ja.talk.emptyComment],
      [{ message: '   ' }, 400, ja.talk.emptyComment],
      [{ message: 'x'.repeat(5001) }, 400, ja.errors.tooLong],
      [{ image: ['https://example.com/a.png'] }, 400, ja.errors.badImage],
      [{ type: 3 }, 400, ja.errors.badRequest],
    ])('refuses %j', async (change, status, message) => {
      expect(await club.send('staff', { users: [club.men[0]!.uid], ...change })).toMatchObject({
        status,
        body: { error: message },
      });
    });

    it('refuses a list that mixes men and women, names staff, or does not match the type', async () => {
      const wrong = { status: 400, body: { error: jaMember.broadcast.wrongGroup } };
      expect(await club.send('staff', { users: [club.men[0]!.uid, club.women[0]!.uid] })).toMatchObject(
        wrong,
      );
      expect(await club.send('staff', { users: [club.users.staff.uid] })).toMatchObject(wrong);
      expect(await club.send('staff', { users: [club.women[0]!.uid], type: 1 })).toMatchObject(wrong);
    });

    it('answers 404 when a recipient does not exist', async () => {
      expect(await club.send('staff', { users: [club.men[0]!.uid, 999_999] })).toMatchObject({ status: 404 });
    });

    it('answers 413 with Japanese text for a body over the route limit', async () => {
      const body = JSON.stringify({
        ssid: club.ssid.staff,
        users: [club.men[0]!.uid],
        message: 'x',
        image: ['x'.repeat(43_000_000)],
      });
      expect(await callRaw(club.ctx.app, 'messages/send', body, 'application/json')).toMatchObject({
        status: 413,
        body: { error: ja.errors.tooLarge },
      });
    });

    it('stores nothing when refused', async () => {
      expect((await club.send('staff', { users: [club.men[0]!.uid, club.women[0]!.uid] })).status).toBe(400);
      expect((await club.send('staff', { users: [club.men[0]!.uid], message: '' })).status).toBe(400);
      expect((await club.send('staff', { users: [club.men[0]!.uid, 999_999] })).status).toBe(404);
      expect((await club.send('man', { users: [club.men[0]!.uid] })).status).toBe(403);
      for (const man of club.menSsid) expect(await club.talkOf(man)).toEqual([]);
      expect(await club.history(1)).toEqual([]);
    });
  });
});
