import { AuditLogReply, jaMember } from '@enishi/contract';
import { describe, expect, it } from 'vitest';
import { call } from '../test/app.js';
import { useMemberOffice } from '../test/member-office.js';

/** The owner's audit log (product.md §2.8): names kept at write time, and the filters. */
describe('auditlog: names and filters', () => {
  const office = useMemberOffice();
  const log = async (filter: Record<string, unknown> = {}) => {
    const reply = await call(office.ctx.app, 'auditlog', { ssid: office.ssid.owner, ...filter });
    expect(reply.status, JSON.stringify(reply.body)).toBe(200);
    return AuditLogReply.parse(reply.body).rows;
  };

  it('names a deleted member by the name he had, on every row about him', async () => {
    const man = await office.addFresh('admin', 'men', { name: '削除 予定男' });
    const profile = await call(office.ctx.app, 'profile/update', {
      ssid: office.ssid.admin,
      uid: man.uid,
      profile: { nickname: 'よていくん' },
    });
    expect(profile.status, JSON.stringify(profile.body)).toBe(200);
    expect((await call(office.ctx.app, 'deluser', { ssid: office.ssid.admin, uid: man.uid })).status).toBe(
      200,
    );

    const rows = (await log()).filter((row) => row.target.uid === man.uid);
    expect(rows.map((row) => row.action).sort()).toEqual(['add', 'delete', 'profile']);
    // The profile row has no snapshot: the name comes from the column written with it.
    for (const row of rows) expect(row.target.name, row.action).toBe('削除 予定男');
    for (const row of rows) expect(row.actor.name).toBe('テスト admin');
  });

  it('filters by a part of either name, by action and by day (Japan time)', async () => {
    const woman = await office.addFresh('staff', 'women', { name: '絞込 花子' });
    expect((await log({ person: '絞込' })).map((row) => row.target.uid)).toEqual([woman.uid]);
    const byStaff = await log({ person: 'テスト staff' });
    expect(byStaff.length).toBeGreaterThan(0);
    expect(byStaff.every((row) => row.actor.name.startsWith('テスト staff'))).toBe(true);
    // A LIKE wildcard is taken as itself.
    expect(await log({ person: '%' })).toEqual([]);

    const deletions = await log({ action: 'delete' });
    expect(deletions.every((row) => row.action === 'delete')).toBe(true);
    expect((await log({ action: 'add', person: '絞込' })).length).toBe(1);
    expect(await log({ action: 'delete', person: '絞込' })).toEqual([]);

    const today = new Date(Date.now() + 9 * 3_600_000).toISOString().slice(0, 10);
    const tomorrow = new Date(Date.now() + 33 * 3_600_000).toISOString().slice(0, 10);
    expect((await log({ person: '絞込', from: today, to: today })).length).toBe(1);
    expect(await log({ person: '絞込', from: tomorrow })).toEqual([]);
    expect(await log({ person: '絞込', to: '2000-01-01' })).toEqual([]);
  });

  it('refuses a malformed day or an unknown action with Japanese text, and members with 403', async () => {
    const bad = await call(office.ctx.app, 'auditlog', { ssid: office.ssid.owner, from: '26/11/2026' });
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({ error: jaMember.audit.badDate });
    const action = await call(office.ctx.app, 'auditlog', { ssid: office.ssid.owner, action: 'drop' });
    expect(action.status).toBe(400);
    const admin = await call(office.ctx.app, 'auditlog', { ssid: office.ssid.admin, person: 'x' });
    expect(admin.status).toBe(403);
  });
});
