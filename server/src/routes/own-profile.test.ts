import { ProfileReply, jaMember } from '@enishi/contract';
import { describe, expect, it } from 'vitest';
import { call } from '../test/app.js';
import { useMemberOffice } from '../test/member-office.js';

const p = jaMember.profile;

/*
 * A member's own profile (product.md §19.10): the owner decides which fields members may change; a member
 * changes only those, on their own profile, and staff see each change in the audit log.
 */
describe("a member's own profile, editable where the owner allows", () => {
  const office = useMemberOffice();
  const { people, ssid, audit } = office;
  const api = (caller: string, name: Parameters<typeof call>[1], body: Record<string, unknown>) =>
    call(office.ctx.app, name, { ssid: ssid[caller], ...body });

  it('lets only the owner and admin choose the editable fields; anyone signed in reads them', async () => {
    // None, as on a new club (the other test of this file may have run first and chosen some).
    expect((await api('owner', 'profile/editable/update', { fields: [] })).status).toBe(200);
    expect((await api('man', 'profile/editable', {})).body).toEqual({ fields: [] });
    for (const caller of ['staff', 'staff6', 'man', 'woman']) {
      expect((await api(caller, 'profile/editable/update', { fields: ['nickname'] })).status, caller).toBe(
        403,
      );
    }
    expect(await api('owner', 'profile/editable/update', { fields: ['sales_note'] })).toMatchObject({
      status: 400,
      body: { error: p.errors.badField },
    });
    expect(await api('admin', 'profile/editable/update', { fields: ['pr', 'nickname'] })).toMatchObject({
      status: 200,
      // In the profile's own order.
      body: { fields: ['nickname', 'pr'] },
    });
    expect((await api('woman', 'profile/editable', {})).body).toEqual({ fields: ['nickname', 'pr'] });
    expect((await call(office.ctx.app, 'profile/editable', { ssid: 'nope' })).status).toBe(401);
  });

  it('a member changes the editable fields of their own profile, audited; nothing else, no one else’s', async () => {
    await api('owner', 'profile/editable/update', { fields: ['nickname', 'pr', 'sake'] });
    const woman = people.woman!;
    const mine = await api('woman', 'profile/update', {
      uid: woman.uid,
      profile: { nickname: 'はなちゃん', sake: 1 },
    });
    expect(mine.status).toBe(200);
    expect(ProfileReply.parse(mine.body).profile).toMatchObject({
      nickname: 'はなちゃん',
      sake: 1,
      sales_note: '',
    });

    // A field the owner keeps read-only: 403 naming it, and nothing written.
    expect(
      await api('woman', 'profile/update', { uid: woman.uid, profile: { nickname: '別名', height: 150 } }),
    ).toMatchObject({ status: 403, body: { error: p.errors.notEditable(p.fields.height) } });
    expect(
      await api('woman', 'profile/update', { uid: woman.uid, profile: { women_rank: 4 } }),
    ).toMatchObject({ status: 403, body: { error: p.errors.notEditable(p.fields.women_rank) } });
    const stored = ProfileReply.parse((await api('staff', 'profile/get', { uid: woman.uid })).body).profile;
    expect(stored).toMatchObject({ nickname: 'はなちゃん', height: null, women_rank: 0 });

    // Someone else's profile: 403, as before.
    expect(
      (await api('man', 'profile/update', { uid: woman.uid, profile: { nickname: '他人' } })).status,
    ).toBe(403);

    // Staff see the member's own change in the audit log, with the member as the actor.
    const rows = (await audit()).filter((row) => row.target.uid === woman.uid && row.action === 'profile');
    expect(rows[0]).toMatchObject({
      actor: { uid: woman.uid, name: woman.name },
      changes: { nickname: ['', 'はなちゃん'], sake: [null, 1] },
    });
  });
});
