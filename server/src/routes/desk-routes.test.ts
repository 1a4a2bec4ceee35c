import {
  CannedRepliesReply,
  ja,
  MessageSearchReply,
  NotesReply,
  SEARCH_PAGE_SIZE,
  type MessageEvent,
  jaMember,
} from '@enishi/contract';
import { describe, expect, it } from 'vitest';
import { call } from '../test/app.js';
import { listen, TestSocket } from '../test/socket.js';
import { postMessage } from '../test/talk.js';
import { useTalkClub } from '../test/talk-club.js';
import { snippet } from '../services/desk-service.js';

describe('the staff desk: message search', () => {
  const club = useTalkClub(() => Date.now());
  const search = async (who: string, body: Record<string, unknown>) => {
    const reply = await call(club.ctx.app, 'messages/search', { ssid: club.ssid[who], ...body });
    return reply.status === 200 ? { status: 200, ...MessageSearchReply.parse(reply.body) } : reply;
  };
  const ids = (reply: unknown) => (reply as MessageSearchReply).rows.map((row) => row.id);

  it('finds kanji and kana substrings, only in the talks the caller sees', async () => {
    const { ctx, ssid, desk, groupTalk, staffRoom, broadcast } = club;
    const mine = await postMessage(ctx.app, ssid.taro!, desk.taro!, '来週の土曜日に東京駅で会いましょう');
    const other = await postMessage(ctx.app, ssid.ichiro!, desk.ichiro!, '東京駅の近くのカフェです');
    const group = await postMessage(ctx.app, ssid.hanako!, groupTalk, 'とうきょうえきは初めてです');
    const staffOnly = await postMessage(ctx.app, ssid.admin!, staffRoom, '東京駅の件はスタッフだけで');

    // Staff see every talk.
    expect(ids(await search('staff-3', { q: '東京駅' }))).toEqual([staffOnly.id, other.id, mine.id]);
    expect(ids(await search('staff-3', { q: 'きょうえき' }))).toEqual([group.id]);
    // A man sees his desk talk; the other man's talk and the staff room never.
    expect(ids(await search('taro', { q: '東京駅' }))).toEqual([mine.id]);
    expect(ids(await search('ichiro', { q: '東京' }))).toEqual([other.id]);
    // Group talk: its man and woman.
    expect(ids(await search('taro', { q: 'きょうえき' }))).toEqual([group.id]);
    expect(ids(await search('hanako', { q: 'きょうえき' }))).toEqual([group.id]);
    expect(ids(await search('yuki', { q: 'きょうえき' }))).toEqual([]);
    // One talk: staff in any, a member only in their own (else 404, as if it did not exist).
    expect(ids(await search('staff-3', { q: '東京駅', conversation_id: desk.taro }))).toEqual([mine.id]);
    expect(await search('taro', { q: '東京駅', conversation_id: desk.ichiro })).toMatchObject({
      status: 404,
      body: { error: ja.errors.notFound },
    });
    expect(await search('taro', { q: '東京', conversation_id: broadcast })).toMatchObject({ status: 404 });

    // What a hit says: the talk as the caller names it, the sender, the text around the match.
    const [hit] = ((await search('taro', { q: '土曜日' })) as MessageSearchReply).rows;
    expect(hit).toMatchObject({
      id: mine.id,
      conversation_id: desk.taro,
      conversation_type: 'staff',
      conversation_name: ja.talk.staffDesk,
      name: '山田 太郎',
      message: '来週の土曜日に東京駅で会いましょう',
    });
    const staffHit = (await search('admin', { q: '土曜日' })) as MessageSearchReply;
    expect(staffHit.rows[0]).toMatchObject({ conversation_type: 'men', conversation_name: '山田 太郎' });
  });

  it('finds one- and two-character words, and % or _ only as themselves', async () => {
    const { ctx, ssid, desk } = club;
    const one = await postMessage(ctx.app, ssid.yuki!, desk.yuki!, '了解です、鰻が好き');
    const percent = await postMessage(ctx.app, ssid.yuki!, desk.yuki!, '割引は50%_OFFです');
    expect(ids(await search('yuki', { q: '鰻' }))).toEqual([one.id]);
    expect(ids(await search('yuki', { q: '了解' }))).toEqual([one.id]);
    expect(ids(await search('yuki', { q: '%' }))).toEqual([percent.id]);
    expect(ids(await search('yuki', { q: '0%_o' }))).toEqual([percent.id]);
    expect(ids(await search('yuki', { q: '_' }))).toEqual([percent.id]);
  });

  it('never finds deleted messages, and pages newest first', async () => {
    const { ctx, ssid, desk } = club;
    const gone = await postMessage(ctx.app, ssid.hanako!, desk.hanako!, '削除される伝言');
    await ctx.app.services.messages.delete(
      await ctx.app.services.sessions.resolve(ssid.hanako!).then((a) => a!),
      gone.id,
    );
    expect(ids(await search('admin', { q: '削除される伝言' }))).toEqual([]);

    const posted = [];
    for (let i = 0; i < SEARCH_PAGE_SIZE + 3; i++) {
      posted.push((await postMessage(ctx.app, ssid.hanako!, desk.hanako!, `ページ送りの確認 ${i}`)).id);
    }
    const first = (await search('hanako', { q: 'ページ送り' })) as MessageSearchReply;
    expect(first.rows).toHaveLength(SEARCH_PAGE_SIZE);
    expect(first.isEnd).toBe(false);
    const second = (await search('hanako', { q: 'ページ送り', before: first.next })) as MessageSearchReply;
    expect([...ids(first), ...ids(second)]).toEqual(posted.reverse());
    expect(second).toMatchObject({ isEnd: true, next: null });
  });

  it('refuses an empty or overlong word with Japanese text, and a caller without a session', async () => {
    expect(await search('staff-3', { q: '   ' })).toMatchObject({
      status: 400,
      body: { error: jaMember.messageSearch.queryEmpty },
    });
    expect(await search('staff-3', { q: 'あ'.repeat(51) })).toMatchObject({
      status: 400,
      body: { error: ja.errors.tooLong },
    });
    expect((await call(club.ctx.app, 'messages/search', { q: 'a' })).status).toBe(401);
  });

  it('cuts a long message around the match', () => {
    const body = `${'あ'.repeat(100)}見つけた${'い'.repeat(200)}`;
    const cut = snippet(body, '見つけた');
    expect(cut.startsWith('…')).toBe(true);
    expect(cut.endsWith('…')).toBe(true);
    expect(cut).toContain('見つけた');
    expect([...cut].length).toBeLessThanOrEqual(122);
  });
});

describe('the staff desk: saved replies, notes and the fixed bugs', () => {
  const club = useTalkClub(() => Date.now());
  const as =
    (who: string) =>
    (name: string, body: Record<string, unknown> = {}) =>
      call(club.ctx.app, name, { ssid: club.ssid[who], ...body });

  it('lets roles 1-3 manage saved replies, every staff role read them, members none', async () => {
    const admin = as('admin');
    const saved = await admin('replies/save', {
      name: 'あいさつ',
      body: '{name}様、お問い合わせありがとうございます。',
    });
    expect(saved.status).toBe(200);
    const [row] = CannedRepliesReply.parse(saved.body).rows;
    expect(row).toMatchObject({ name: 'あいさつ', updated_by: '管理者' });
    expect(await admin('replies/save', { name: 'アイサツ'.toLowerCase(), body: 'x' })).toMatchObject({
      status: 200,
    });
    expect(await admin('replies/save', { name: 'あいさつ', body: '二つ目' })).toMatchObject({
      status: 409,
      body: { error: jaMember.cannedReplies.replyNameTaken },
    });
    expect(await admin('replies/save', { name: 'a b', body: 'x' })).toMatchObject({
      status: 400,
      body: { error: jaMember.cannedReplies.replyNameBad },
    });
    const edited = await admin('replies/save', { id: row!.id, name: 'あいさつ', body: '変更後' });
    expect(CannedRepliesReply.parse(edited.body).rows.find((r) => r.id === row!.id)?.body).toBe('変更後');
    expect((await admin('replies/save', { id: 999_999, name: 'なし', body: 'x' })).status).toBe(404);

    expect(CannedRepliesReply.parse((await as('staff-3')('replies/list')).body).rows).toHaveLength(2);
    for (const member of ['taro', 'hanako']) {
      expect(await as(member)('replies/list')).toMatchObject({
        status: 403,
        body: { error: ja.errors.forbidden },
      });
      expect((await as(member)('replies/save', { name: 'x', body: 'y' })).status).toBe(403);
    }
    const removed = await admin('replies/delete', { id: row!.id });
    expect(CannedRepliesReply.parse(removed.body).rows.map((r) => r.name)).toEqual(['アイサツ']);
    expect((await admin('replies/delete', { id: row!.id })).status).toBe(404);
  });

  it('keeps notes on a member for staff, with author and time, and never for members', async () => {
    const { man, woman, staff } = club;
    const added = await as('staff-3')('notes/add', { uid: man.uid, body: '土曜の午後が都合よい' });
    expect(added.status).toBe(200);
    const notes = NotesReply.parse(added.body);
    expect(notes.member).toMatchObject({ uid: man.uid, name: '山田 太郎', id: 'taro' });
    expect(notes.rows[0]).toMatchObject({
      body: '土曜の午後が都合よい',
      author: 'スタッフ三郎',
      author_uid: staff.uid,
    });
    expect(Date.parse(notes.rows[0]!.created_at)).not.toBeNaN();

    for (const member of ['taro', 'hanako']) {
      expect((await as(member)('notes/list', { uid: man.uid })).status).toBe(403);
      expect((await as(member)('notes/add', { uid: man.uid, body: 'x' })).status).toBe(403);
      expect((await as(member)('notes/delete', { id: notes.rows[0]!.id })).status).toBe(403);
    }
    // A staff record is not a member: no notes there.
    expect((await as('admin')('notes/list', { uid: staff.uid })).status).toBe(404);
    expect((await as('admin')('notes/add', { uid: woman.uid, body: '   ' })).status).toBe(400);
    // Whatever the member themself receives never carries the note's text.
    for (const [name, body] of [
      ['getuser', {}],
      ['conversations', { type: 'staff', search: '', page: 0 }],
      ['messages', { id: club.desk.taro }],
      ['messages/search', { q: '土曜の午後' }],
    ] as const) {
      const reply = await as('taro')(name, body);
      expect(JSON.stringify(reply.body)).not.toContain('土曜の午後が都合よい');
    }
    const gone = await as('admin')('notes/delete', { id: notes.rows[0]!.id });
    expect(NotesReply.parse(gone.body).rows).toEqual([]);
  });

  it('refuses a second group talk of the same man and woman', async () => {
    const { man, woman } = club;
    expect(
      await as('admin')('add_conversation', { params: { men: man.uid, women: woman.uid, type: 'st' } }),
    ).toMatchObject({
      status: 409,
      body: { error: jaMember.groups.sameGroupExists },
    });
  });

  it('keeps bulk-send histories read-only, and pins a message itself rather than a copy', async () => {
    const { ctx, ssid, desk, broadcast } = club;
    const base = await listen(ctx.app);
    const staffSocket = await TestSocket.session(base, ssid.admin!);
    const memberSocket = await TestSocket.session(base, ssid.taro!);
    staffSocket.send({
      type: 'text',
      conversation_id: broadcast,
      message: '届かない',
      client_id: crypto.randomUUID(),
    });
    expect(await staffSocket.take((frame) => frame.type === 'error')).toMatchObject({
      error: jaMember.desk.readOnlyError,
    });

    const original = await postMessage(ctx.app, ssid.taro!, desk.taro!, '大事なお知らせ');
    await memberSocket.take((frame) => frame.type === 'message' && frame.id === original.id);
    staffSocket.send({ type: 'pin', message_id: original.id });
    const pinned = await memberSocket.take<MessageEvent>(
      (frame) => frame.type === 'message' && frame.announce,
    );
    expect(pinned).toMatchObject({ id: original.id, announce: true, message: '大事なお知らせ' });
    const page = await club.messagesOf('taro', desk.taro!);
    const all = page.rows.flatMap((group) => group.messages.map((m) => [group.date, m.id]));
    expect(all.filter(([, id]) => id === original.id)).toEqual([
      ['announce', original.id],
      [expect.any(String), original.id],
    ]);
    expect(page.rows.flatMap((g) => g.messages).filter((m) => m.message === '大事なお知らせ')).toHaveLength(
      2,
    );
    // A member cannot pin in someone else's talk.
    memberSocket.send({
      type: 'pin',
      message_id: (await postMessage(ctx.app, ssid.ichiro!, desk.ichiro!, '他人')).id,
    });
    expect(await memberSocket.take((frame) => frame.type === 'error')).toMatchObject({
      error: ja.errors.notFound,
    });
    await Promise.all([staffSocket.close(), memberSocket.close()]);
  });
});
