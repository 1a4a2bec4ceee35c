import { IMAGE_DATA_URL_MAX, MESSAGE_IMAGES_MAX, SOCKET_CLOSE, SOCKET_MAX_PAYLOAD } from '@enishi/contract';
import { describe, expect, it } from 'vitest';
import { sha256Hex } from '../lib/tokens.js';
import { SessionRepository } from '../repositories/session-repository.js';
import { call, createUser, login } from '../test/app.js';
import { listen, TestSocket } from '../test/socket.js';
import { deskOf } from '../test/talk.js';
import { leastPicturesIn } from './frame-size.js';
import { SESSION_RECHECK_MS } from './socket-session.js';
import {
  barrier,
  connect,
  ctx,
  isMessage,
  man,
  manDesk,
  say,
  ssid,
  text,
  useChatClub,
  open,
} from '../test/chat-club.js';

describe('chat socket: sessions ending', () => {
  useChatClub();

  describe('sessions ending', () => {
    it('closes the socket with 4403 on logout, and leaves the user’s other sessions open', async () => {
      const phone = await login(ctx.app, man);
      const socket = await connect(phone);
      const otherDevice = await connect(ssid.taro!);
      expect((await call(ctx.app, 'logout', { ssid: phone })).status).toBe(200);
      expect((await socket.closed).code).toBe(SOCKET_CLOSE.sessionEnded);
      await barrier(otherDevice);
    });

    it('closes every socket of a deleted user', async () => {
      const leaver = await createUser(ctx.app, { loginId: 'leaver', role: 201 });
      const socket = await connect(await login(ctx.app, leaver));
      expect(await ctx.app.services.users.delete(leaver.uid)).toBe(true);
      expect((await socket.closed).code).toBe(SOCKET_CLOSE.sessionEnded);
    });

    it('reads the session again after SESSION_RECHECK_MS: a row gone without a notice closes it then', async () => {
      let now = Date.now();
      const clocked = await ctx.buildApp({}, () => now);
      const clockedBase = await listen(clocked);
      const phone = await login(clocked, man);
      const socket = await TestSocket.session(clockedBase, phone);
      open.push(socket);
      // As another instance's logout looks before a shared fan-out exists: the row is simply gone.
      await new SessionRepository(ctx.database.db).delete(sha256Hex(phone));
      // Within the window the socket still answers from the session it read...
      const within = text(manDesk, 'まだ届く');
      socket.send(within);
      await socket.take(isMessage(within.client_id));
      // ...and once it has passed, the next frame finds the session gone.
      now += SESSION_RECHECK_MS;
      socket.send(text(manDesk, '送れないはず'));
      expect((await socket.closed).code).toBe(SOCKET_CLOSE.sessionEnded);
      await clocked.close();
    });

    it('shows a changed name on the next message without reconnecting', async () => {
      const renamed = await createUser(ctx.app, { loginId: 'renamed', role: 101, name: '旧姓 一郎' });
      const session = await login(ctx.app, renamed);
      const socket = await connect(session);
      const desk = await deskOf(ctx.app, session);
      expect((await say(socket, desk, '改名前')).name).toBe('旧姓 一郎');
      const updated = await call(ctx.app, 'updateuser', {
        ssid: ssid.admin,
        uid: renamed.uid,
        id: 'renamed',
        name: '新姓 一郎',
        pass: '',
        rank: 2,
        role: 101,
        introducer: '',
      });
      expect(updated.status).toBe(200);
      expect((await say(socket, desk, '改名後')).name).toBe('新姓 一郎');
    });
  });
});

describe('the pictures a frame must carry', () => {
  it('are counted from its size: one for any frame of pictures, five for the largest frame there is', () => {
    const mb = 1024 * 1024;
    expect(leastPicturesIn(mb)).toBe(1);
    expect(leastPicturesIn(mb + IMAGE_DATA_URL_MAX)).toBe(1);
    expect(leastPicturesIn(mb + IMAGE_DATA_URL_MAX + 1)).toBe(2);
    // The flood's frame: five data URLs of 5.3 million characters.
    expect(leastPicturesIn(26_685_679)).toBe(4);
    expect(leastPicturesIn(SOCKET_MAX_PAYLOAD)).toBe(MESSAGE_IMAGES_MAX);
  });
});
