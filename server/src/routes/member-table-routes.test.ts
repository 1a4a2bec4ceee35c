import { MemberTableReply } from '@enishi/contract';
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { conversations, messages } from '../db/schema.js';
import { call } from '../test/app.js';
import { useMemberOffice } from '../test/member-office.js';

/** The back office's member tables (product.md §2.8): sort, filter, page, unread and who may read them. */
describe('members/table', () => {
  const office = useMemberOffice();
  const table = async (caller: string, body: Record<string, unknown>) => {
    const reply = await call(office.ctx.app, 'members/table', { ssid: office.ssid[caller], ...body });
    expect(reply.status, JSON.stringify(reply.body)).toBe(200);
    return MemberTableReply.parse(reply.body);
  };
  const uids: Record<string, number> = {};

  beforeAll(async () => {
    for (const [name, rank] of [
      ['表 あかり', 1],
      ['表 いつき', 3],
      ['表 うみ', 3],
    ] as const) {
      uids[name] = (await office.addFresh('admin', 'men', { name, rank })).uid;
    }
    // Two messages from いつき in his talk with staff: unread for every staff member.
    const [desk] = await office.ctx.database.db
      .select({ id: conversations.id })
      .from(conversations)
      .where(eq(conversations.memberId, uids['表 いつき']!));
    await office.ctx.database.db.insert(messages).values([
      { conversationId: desk!.id, senderId: uids['表 いつき']!, body: 'こんにちは' },
      { conversationId: desk!.id, senderId: uids['表 いつき']!, body: 'お願いします' },
    ]);
    // As the message writer does with every message: the talk's last activity moves to it.
    await office.ctx.database.db
      .update(conversations)
      .set({ lastActivityAt: new Date() })
      .where(eq(conversations.id, desk!.id));
  });

  it('sorts by any column both ways and pages with the total', async () => {
    const up = await table('staff', { kind: 'men', keyword: '表 ', sort: 'name', desc: false });
    expect(up.rows.map((row) => row.name)).toEqual(['表 あかり', '表 いつき', '表 うみ']);
    expect(up.total).toBe(3);
    const down = await table('staff', { kind: 'men', keyword: '表 ', sort: 'name', desc: true });
    expect(down.rows.map((row) => row.name)).toEqual(['表 うみ', '表 いつき', '表 あかり']);

    const byUnread = await table('staff', { kind: 'men', keyword: '表 ', sort: 'unread' });
    expect(byUnread.rows[0]).toMatchObject({ name: '表 いつき', unread: 2 });
    expect(byUnread.rows[0]!.conversation_id).toEqual(expect.any(Number));
    expect(byUnread.rows[0]!.last_activity).not.toBeNull();
    expect(byUnread.rows.slice(1).every((row) => row.unread === 0)).toBe(true);

    const paged = await table('staff', {
      kind: 'men',
      keyword: '表 ',
      sort: 'name',
      desc: false,
      size: 25,
      page: 1,
    });
    expect(paged).toEqual({ rows: [], total: 3 });
  });

  it('filters by rank and keyword; women by entry type', async () => {
    const vip = await table('staff', { kind: 'men', keyword: '表 ', rank: 3, sort: 'name', desc: false });
    expect(vip.rows.map((row) => row.name)).toEqual(['表 いつき', '表 うみ']);
    const ranked = await office.addFresh('admin', 'women', { name: '表 えま' });
    const profile = await call(office.ctx.app, 'profile/update', {
      ssid: office.ssid.admin,
      uid: ranked.uid,
      profile: { women_rank: 6 },
    });
    expect(profile.status, JSON.stringify(profile.body)).toBe(200);
    expect(
      (await table('staff', { kind: 'women', rank: 6 })).rows.map((row) => [row.name, row.rank]),
    ).toEqual([['表 えま', 6]]);
    const women = await table('staff', { kind: 'women' });
    expect(women.rows.every((row) => row.role === 201)).toBe(true);
    const none = await table('staff', { kind: 'women', entry_type: 5 });
    expect(none.rows.every((row) => row.entry_type === 5)).toBe(true);
  });

  it('shows staff records to the owner alone, and nothing to members', async () => {
    expect(
      (await table('owner', { kind: 'staff' })).rows.every((row) => row.role >= 1 && row.role <= 6),
    ).toBe(true);
    for (const [caller, kind] of [
      ['admin', 'staff'],
      ['man', 'men'],
      ['woman', 'women'],
    ] as const) {
      const reply = await call(office.ctx.app, 'members/table', { ssid: office.ssid[caller], kind });
      expect(reply.status, `${caller} ${kind}`).toBe(403);
    }
    const bad = await call(office.ctx.app, 'members/table', {
      ssid: office.ssid.staff,
      kind: 'men',
      size: 10_000,
    });
    expect(bad.status).toBe(400);
  });
});
