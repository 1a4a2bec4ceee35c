import { BroadcastsReply, MessagesReply, type Message } from '@enishi/contract';
import { afterAll, afterEach, beforeAll, beforeEach, expect } from 'vitest';
import { call, createTestContext, createUser, login } from './app.js';
import { createRoleUsers, type RoleName } from './content.js';
import { closeAll, listen, type TestSocket } from './socket.js';
import { deskOf } from './talk.js';

/**
 * A club of its own for the bulk-send route tests: the role users, three men and two women, nothing sent yet.
 * `send` sends as one of the roles, `talkOf` reads a member's talk with staff, `history` the staff's record of
 * the sends; `sockets` are closed with the club.
 */
export async function openBroadcastClub() {
  const ctx = await createTestContext();
  const base = await listen(ctx.app);
  const { ssid, users } = await createRoleUsers(ctx.app);
  const men = [users.man];
  for (const loginId of ['jiro', 'saburo'])
    men.push(await createUser(ctx.app, { loginId, role: 101, rank: 3 }));
  const menSsid = [ssid.man, ...(await Promise.all(men.slice(1).map((man) => login(ctx.app, man))))];
  const women = [users.woman, await createUser(ctx.app, { loginId: 'hanako', role: 201 })];
  const sockets: TestSocket[] = [];

  const send = (who: RoleName, body: Record<string, unknown>) =>
    call(ctx.app, 'messages/send', { ssid: ssid[who], message: '一括のお知らせです', image: [], ...body });
  /** Every message of a talk, as the member sees it. */
  const talkOf = async (memberSsid: string): Promise<Message[]> => {
    const desk = await deskOf(ctx.app, memberSsid);
    const reply = await call(ctx.app, 'messages', { ssid: memberSsid, id: desk });
    return MessagesReply.parse(reply.body).rows.flatMap((group) => group.messages);
  };
  const history = async (type: 1 | 2) => {
    const reply = await call(ctx.app, 'broadcasts', { ssid: ssid.staff, type });
    expect(reply.status).toBe(200);
    return BroadcastsReply.parse(reply.body).rows;
  };
  const close = async () => {
    await closeAll(sockets.splice(0));
    await ctx.close();
  };
  return { ctx, base, ssid, users, men, menSsid, women, sockets, send, talkOf, history, close };
}

export type BroadcastClub = Awaited<ReturnType<typeof openBroadcastClub>>;

/**
 * The club of the tests around the call: one for them all (`'all'`, for tests that store nothing), or a new
 * one for each (`'each'`, for tests that count what their own send stored). Its fields are there from the
 * first test on.
 */
export function useBroadcastClub(per: 'all' | 'each'): BroadcastClub {
  const club = {} as BroadcastClub;
  const open = async () => {
    Object.assign(club, await openBroadcastClub());
  };
  const close = () => club.close();
  if (per === 'all') {
    beforeAll(open);
    afterAll(close);
  } else {
    beforeEach(open);
    afterEach(close);
  }
  return club;
}
