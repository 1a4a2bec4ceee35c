import {
  AuditLogReply,
  ConversationsReply,
  DeskCountsReply,
  DeskStaffReply,
  DeskTalkState,
  jaMember,
  type ConversationRow,
} from '@enishi/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTestContext, createUser, login, type TestContext } from '../test/app.js';
import { createRoleUsers, type RoleName } from '../test/content.js';
import { deskOf, postMessage } from '../test/talk.js';

/*
 * A desk talk's status and 担当 (product.md §2.6): staff set them, a member's message reopens a 対応済み talk,
 * the lists filter and the side navigation counts by them, every change is an audit row, and members see
 * none of it (the live frame: realtime/desk-events-redis.test.ts).
 */

let ctx: TestContext;
let ssid: Record<RoleName, string>;
let uids: Record<RoleName, number>;
let serial = 0;

/** A man of this case alone, with his session and his desk talk (cases run in any order). */
async function freshMan(name = '会員') {
  serial += 1;
  const man = await createUser(ctx.app, {
    loginId: `desk-man-${serial}`,
    role: 101,
    name: `${name}${serial}`,
  });
  const session = await login(ctx.app, man);
  return { ...man, ssid: session, talk: await deskOf(ctx.app, session) };
}

const setStatus = (who: RoleName, conversationId: number, status: string) =>
  call(ctx.app, 'desk/status', { ssid: ssid[who], conversation_id: conversationId, status });
const assign = (who: RoleName, conversationId: number, assignee: number | null) =>
  call(ctx.app, 'desk/assign', { ssid: ssid[who], conversation_id: conversationId, assignee });

async function menList(who: RoleName, body: Record<string, unknown> = {}): Promise<ConversationRow[]> {
  const reply = await call(ctx.app, 'conversations', { ssid: ssid[who], type: 'men', search: '', ...body });
  expect(reply.status, JSON.stringify(reply.body)).toBe(200);
  return ConversationsReply.parse(reply.body).rows;
}

async function counts(who: RoleName) {
  const reply = await call(ctx.app, 'desk/counts', { ssid: ssid[who] });
  expect(reply.status).toBe(200);
  return DeskCountsReply.parse(reply.body);
}

/** The owner's audit rows of action `desk` about one member, newest first. */
async function deskAudit(memberName: string) {
  const reply = await call(ctx.app, 'auditlog', {
    ssid: ssid.owner,
    page: 0,
    action: 'desk',
    person: memberName,
  });
  expect(reply.status).toBe(200);
  return AuditLogReply.parse(reply.body).rows;
}

beforeAll(async () => {
  ctx = await createTestContext();
  const roles = await createRoleUsers(ctx.app, 'desk-');
  ssid = roles.ssid;
  uids = Object.fromEntries(Object.entries(roles.users).map(([name, user]) => [name, user.uid])) as Record<
    RoleName,
    number
  >;
});
afterAll(() => ctx.close());

describe('a desk talk’s status (product.md §2.6)', () => {
  it('starts 未対応, changes to 対応中 and 対応済み, each change one audit row', async () => {
    const man = await freshMan('状況');
    const row = (await menList('staff', { search: man.name }))[0]!;
    expect(row).toMatchObject({ id: man.talk, desk_status: 'open', assignee: null });

    const pending = await setStatus('staff6', man.talk, 'pending');
    expect(pending.status).toBe(200);
    expect(DeskTalkState.parse(pending.body)).toEqual({
      conversation_id: man.talk,
      uid: man.uid,
      status: 'pending',
      assignee: null,
    });
    expect((await setStatus('staff', man.talk, 'done')).status).toBe(200);
    // The same status again changes nothing and logs nothing.
    expect((await setStatus('staff', man.talk, 'done')).status).toBe(200);
    expect((await menList('admin', { search: man.name }))[0]).toMatchObject({ desk_status: 'done' });

    const rows = await deskAudit(man.name);
    expect(rows.map((each) => [each.actor.name, each.changes])).toEqual([
      ['staff 太郎', { desk_status: ['pending', 'done'] }],
      ['staff6 太郎', { desk_status: ['open', 'pending'] }],
    ]);
    expect(rows[0]!.target).toEqual({ uid: man.uid, role: 101, name: man.name });
  });

  it('reopens a 対応済み talk as 未対応 when its member writes, and leaves 対応中 as it is', async () => {
    const man = await freshMan('再開');
    await setStatus('staff', man.talk, 'done');
    await postMessage(ctx.app, man.ssid, man.talk, 'もう一つ質問があります');
    expect((await menList('staff', { search: man.name }))[0]).toMatchObject({ desk_status: 'open' });
    const [reopened] = await deskAudit(man.name);
    expect(reopened).toMatchObject({
      actor: { uid: man.uid, name: man.name },
      changes: { desk_status: ['done', 'open'] },
    });

    await setStatus('staff', man.talk, 'pending');
    await postMessage(ctx.app, man.ssid, man.talk, 'よろしくお願いします');
    expect((await menList('staff', { search: man.name }))[0]).toMatchObject({ desk_status: 'pending' });
    // Staff writing never reopens.
    await setStatus('staff', man.talk, 'done');
    await postMessage(ctx.app, ssid.staff, man.talk, 'ご連絡ありがとうございます');
    expect((await menList('staff', { search: man.name }))[0]).toMatchObject({ desk_status: 'done' });
  });

  it('leaves one status standing when two staff change a talk at once, with an audit row each', async () => {
    const man = await freshMan('同時');
    const replies = await Promise.all([
      setStatus('staff', man.talk, 'pending'),
      setStatus('admin', man.talk, 'done'),
    ]);
    expect(replies.map((reply) => reply.status)).toEqual([200, 200]);
    const [last, first] = await deskAudit(man.name);
    // Each change was made from what the one before left: the log reads as one chain.
    expect(first!.changes!.desk_status![0]).toBe('open');
    expect(last!.changes!.desk_status![0]).toBe(first!.changes!.desk_status![1]);
    const standing = (await menList('staff', { search: man.name }))[0]!.desk_status;
    expect(standing).toBe(last!.changes!.desk_status![1]);
  });

  it('refuses members (403), no session (401), a group or unknown talk (404) and a bad status (400)', async () => {
    const man = await freshMan('拒否');
    for (const who of ['man', 'woman'] as const) {
      expect((await setStatus(who, man.talk, 'done')).status).toBe(403);
      expect((await assign(who, man.talk, uids[who])).status).toBe(403);
      expect((await call(ctx.app, 'desk/counts', { ssid: ssid[who] })).status).toBe(403);
    }
    expect(
      (await call(ctx.app, 'desk/status', { ssid: 'none', conversation_id: man.talk, status: 'done' }))
        .status,
    ).toBe(401);
    expect(await setStatus('staff', 99_999_999, 'done')).toMatchObject({
      status: 404,
      body: { error: jaMember.deskTalk.errors.notDeskTalk },
    });
    expect((await setStatus('staff', man.talk, 'finished')).status).toBe(400);
    expect((await menList('staff', { search: man.name }))[0]).toMatchObject({ desk_status: 'open' });
  });

  it('never shows a member the status or 担当 of their talk', async () => {
    const man = await freshMan('会員側');
    await assign('staff', man.talk, uids.staff);
    const reply = await call(ctx.app, 'conversations', { ssid: man.ssid, type: 'staff', search: '' });
    const [row] = ConversationsReply.parse(reply.body).rows;
    expect(row).toBeDefined();
    expect(row).not.toHaveProperty('desk_status');
    expect(row).not.toHaveProperty('assignee');
    const one = await call(ctx.app, 'get_conversation', { ssid: man.ssid, conversation_id: man.talk });
    expect(JSON.stringify(one.body)).not.toContain('desk_status');
    // Filters in a member's call are ignored, not obeyed.
    const filtered = await call(ctx.app, 'conversations', {
      ssid: man.ssid,
      type: 'staff',
      search: '',
      desk_status: 'done',
    });
    expect(ConversationsReply.parse(filtered.body).rows).toHaveLength(1);
  });
});

describe('担当 (product.md §2.6)', () => {
  it('lets staff take a talk, the senior hand it over, and its 担当 release it', async () => {
    const man = await freshMan('担当');
    const taken = await assign('staff6', man.talk, uids.staff6);
    expect(DeskTalkState.parse(taken.body).assignee).toEqual({ uid: uids.staff6, name: 'staff6 太郎' });
    // Role 6 may not hand over, nor take it off someone else.
    const handed = await assign('staff', man.talk, uids.admin);
    expect(handed.status).toBe(200);
    expect((await assign('staff6', man.talk, null)).status).toBe(403);
    expect((await assign('staff6', man.talk, uids.owner)).status).toBe(403);
    // A member is never a 担当.
    expect(await assign('admin', man.talk, man.uid)).toMatchObject({
      status: 400,
      body: { error: jaMember.deskTalk.errors.notStaff },
    });
    expect((await assign('admin', man.talk, null)).status).toBe(200);
    expect((await menList('staff', { search: man.name }))[0]).toMatchObject({ assignee: null });
    const rows = await deskAudit(man.name);
    expect(rows.map((each) => each.changes)).toEqual([
      { assignee: ['admin 太郎', null] },
      { assignee: ['staff6 太郎', 'admin 太郎'] },
      { assignee: [null, 'staff6 太郎'] },
    ]);
  });

  it('filters the list by status, 担当 (自分の担当, none, someone) and unread, and counts them', async () => {
    const tag = `絞込${Date.now() % 100_000}`;
    const [open, mine, done] = [await freshMan(tag), await freshMan(tag), await freshMan(tag)];
    await assign('staff6', mine.talk, uids.staff6);
    await setStatus('staff6', mine.talk, 'pending');
    await setStatus('staff', done.talk, 'done');
    await postMessage(ctx.app, open.ssid, open.talk, 'はじめまして');
    const ids = async (body: Record<string, unknown>, who: RoleName = 'staff6') =>
      (await menList(who, { search: tag, ...body })).map((row) => row.id).sort();

    expect(await ids({})).toEqual([open.talk, mine.talk, done.talk].sort());
    expect(await ids({ desk_status: 'open' })).toEqual([open.talk]);
    expect(await ids({ desk_status: 'pending' })).toEqual([mine.talk]);
    expect(await ids({ desk_status: 'done' })).toEqual([done.talk]);
    expect(await ids({ assignee: 'me' })).toEqual([mine.talk]);
    expect(await ids({ assignee: 'me' }, 'staff')).toEqual([]);
    expect(await ids({ assignee: uids.staff6 }, 'staff')).toEqual([mine.talk]);
    expect(await ids({ assignee: 'none' })).toEqual([open.talk, done.talk].sort());
    expect(await ids({ unread_only: true })).toEqual([open.talk]);
    expect(await ids({ unread_only: true, desk_status: 'done' })).toEqual([]);

    // The counts move with the changes (other cases change other talks, so compare before and after).
    const before = await counts('staff6');
    await setStatus('staff6', open.talk, 'pending');
    await assign('staff6', open.talk, uids.staff6);
    const after = await counts('staff6');
    expect(after.open - before.open).toBe(-1);
    expect(after.pending - before.pending).toBe(1);
    expect(after.mine - before.mine).toBe(1);
    await setStatus('staff6', open.talk, 'done');
    expect((await counts('staff6')).mine - after.mine).toBe(-1);
  });

  it('gives new members 担当 in turn once the admin turns it on (off by default; staff may not)', async () => {
    const staffList = DeskStaffReply.parse((await call(ctx.app, 'desk/staff', { ssid: ssid.staff })).body);
    expect(staffList.round_robin).toBe(false);
    expect(staffList.rows.map((row) => row.uid)).toEqual(expect.arrayContaining([uids.admin, uids.staff6]));
    expect(staffList.rows.map((row) => row.uid)).not.toContain(uids.man);
    for (const who of ['staff', 'staff6', 'man'] as const)
      expect((await call(ctx.app, 'desk/round_robin', { ssid: ssid[who], enabled: true })).status).toBe(403);

    const add = async (id: string) => {
      const reply = await call(ctx.app, 'adduser', {
        ssid: ssid.admin,
        id,
        pass: 'Pass-1234',
        name: `順番 ${id}`,
        rank: 1,
        role: 101,
        introducer: '',
      });
      expect(reply.status, JSON.stringify(reply.body)).toBe(200);
      return (await menList('staff', { search: `順番 ${id}` }))[0]!;
    };
    const on = await call(ctx.app, 'desk/round_robin', { ssid: ssid.admin, enabled: true });
    expect(on).toMatchObject({ status: 200, body: { round_robin: true } });
    const staffCount = staffList.rows.length;
    const given = [];
    for (let index = 0; index <= staffCount; index += 1) given.push(await add(`rr-${serial}-${index}`));
    const names = given.map((row) => row.assignee?.name);
    // Every staff member once, then round again to the first.
    expect(new Set(names.slice(0, staffCount)).size).toBe(staffCount);
    expect(names[staffCount]).toBe(names[0]);
    const off = await call(ctx.app, 'desk/round_robin', { ssid: ssid.owner, enabled: false });
    expect(off).toMatchObject({ status: 200, body: { round_robin: false } });
    expect((await add(`rr-${serial}-off`)).assignee).toBeNull();
    serial += 1;
  });
});
