import { MessagesReply, type ServerFrame } from '@enishi/contract';
import { describe, expect, it } from 'vitest';
import { call } from '../test/app.js';
import {
  admin,
  barrier,
  connect,
  groupTalk,
  ctx,
  man,
  say,
  ssid,
  useChatClub,
  woman,
} from '../test/chat-club.js';

type ReadFrame = Extract<ServerFrame, { type: 'read' }>;

/** What the sender sees of one message over HTTP: its 既読 count. */
async function readCountOf(who: string, id: number) {
  const reply = await call(ctx.app, 'messages', { ssid: ssid[who], id: groupTalk });
  expect(reply.status).toBe(200);
  const messages = MessagesReply.parse(reply.body).rows.flatMap((group) => group.messages);
  return messages.find((message) => message.id === id)?.read_count;
}

// 既読 N in a group talk (product.md §12.2): the sides other than the sender's that have read a message.
describe('group talk read counts', () => {
  useChatClub();

  it('counts the woman and the staff once each, live in the read frame and in the pages', async () => {
    const taro = await connect(ssid.taro!);
    const hanako = await connect(ssid.hanako!);
    const staff = await connect(ssid.admin!);
    const helper = await connect(ssid.helper!);
    const sent = await say(taro, groupTalk, 'こんにちは');
    expect(sent.read_count ?? 0).toBe(0);
    expect(await readCountOf('taro', sent.id)).toBe(0);

    hanako.send({ type: 'open', conversation_id: groupTalk, conversation_type: 'st' });
    const byWoman = await taro.take<ReadFrame>(
      (frame) => frame.type === 'read' && frame.reader === woman.uid,
    );
    expect(byWoman).toMatchObject({ conversation_id: groupTalk, last_read_id: sent.id });
    expect(byWoman.marks).toEqual({ men: sent.id, women: sent.id, staff: 0 });
    expect(await readCountOf('taro', sent.id)).toBe(1);

    staff.send({ type: 'open', conversation_id: groupTalk, conversation_type: 'st' });
    const byStaff = await hanako.take<ReadFrame>(
      (frame) => frame.type === 'read' && frame.marks?.staff === sent.id,
    );
    expect(byStaff.marks).toEqual({ men: sent.id, women: sent.id, staff: sent.id });
    expect(await readCountOf('taro', sent.id)).toBe(2);

    // A second staff member reading changes nothing: the staff are one side.
    helper.send({ type: 'open', conversation_id: groupTalk, conversation_type: 'st' });
    await barrier(helper);
    expect(await readCountOf('taro', sent.id)).toBe(2);
    // The staff have the talk open, so the woman's answer is read by them as it arrives; then by the man.
    const answer = await say(hanako, groupTalk, 'よろしくお願いします');
    const isRead = (reader: number) => (frame: ServerFrame) =>
      frame.type === 'read' && frame.reader === reader && frame.last_read_id === answer.id;
    await hanako.take(isRead(admin.uid));
    expect(await readCountOf('hanako', answer.id)).toBe(1);
    taro.send({ type: 'open', conversation_id: groupTalk, conversation_type: 'st' });
    await hanako.take(isRead(man.uid));
    expect(await readCountOf('hanako', answer.id)).toBe(2);
  });
});
