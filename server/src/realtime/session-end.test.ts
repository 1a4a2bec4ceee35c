import { SOCKET_CLOSE } from '@enishi/contract';
import { describe, expect, it } from 'vitest';
import { SESSION_ABSOLUTE_MS } from '../services/session-service.js';
import { createUser, login } from '../test/app.js';
import { barrier, connect, ctx, useChatClub } from '../test/chat-club.js';
import { listen, TestSocket } from '../test/socket.js';
import { actorOf } from '../test/talk.js';

describe('chat socket: a session that ends closes its sockets everywhere', () => {
  useChatClub();

  it('closes the other sessions\u2019 sockets when someone changes their own password, and keeps the changing one', async () => {
    const owner = await createUser(ctx.app, { loginId: 'owner2', role: 2, name: '二人目 オーナー' });
    const changing = await login(ctx.app, owner);
    const other = await login(ctx.app, owner);
    const stays = await connect(changing);
    const ends = await connect(other);

    await ctx.app.services.memberAdmin.update(await actorOf(ctx.app, changing), owner.uid, {
      loginId: owner.loginId,
      name: owner.name,
      password: 'New-pass2',
      rank: 0,
      role: 2,
      introducer: '',
    });
    expect((await ends.closed).code).toBe(SOCKET_CLOSE.sessionEnded);
    await barrier(stays);
    expect(stays.ws.readyState).toBe(stays.ws.OPEN);
  });

  it('closes the socket of a session that expires while it is open (fake clock, short sweep)', async () => {
    let now = Date.now();
    const app = await ctx.buildApp({}, () => now, { socketSweepMs: 20 });
    const origin = await listen(app);
    const user = await createUser(app, { loginId: 'expiring', role: 101, name: '期限 切れ' });
    const session = await login(app, user);
    const socket = await TestSocket.session(origin, session);
    now += SESSION_ABSOLUTE_MS;
    expect((await socket.closed).code).toBe(SOCKET_CLOSE.sessionEnded);
  });
});
