import { performance } from 'node:perf_hooks';
import { ja, SOCKET_CLOSE, SOCKET_FIRST_FRAME_MAX, SOCKET_MAX_PER_USER } from '@enishi/contract';
import { describe, expect, it, onTestFinished, vi } from 'vitest';
import {
  barrier,
  base,
  connect,
  ctx,
  isError,
  isMessage,
  manDesk,
  messageCount,
  open,
  outsiderDesk,
  ssid,
  text,
  say,
  useChatClub,
  woman,
  type ErrorFrame,
  type MessageFrame,
} from '../test/chat-club.js';
import { noisePng } from '../test/flood.js';
import { login } from '../test/app.js';
import { dataUrl, pngOf } from '../test/member-office.js';
import { frameBomb } from '../test/frame-bomb.js';
import { healthzP99, underAttackBound } from '../test/healthz-timing.js';
import { closeAll, listen, TestSocket } from '../test/socket.js';

const nested = (depth: number) => '['.repeat(depth) + ']'.repeat(depth);

describe('chat socket against hostile clients', () => {
  useChatClub();

  describe('before the session', () => {
    it('closes with 1009 for a first frame over the small limit', async () => {
      const socket = await TestSocket.connect(base);
      socket.send({ type: 'session', session: 'x'.repeat(SOCKET_FIRST_FRAME_MAX) });
      expect((await socket.closed).code).toBe(1009);
    });

    it('keeps /healthz fast while 8 clients send 30 MiB of nested JSON as their first frame', async () => {
      const baseline = await healthzP99(base, 50);
      const attack = frameBomb(base, { sockets: 8, depth: 15 * 1024 * 1024 });
      await attack.sent;
      expect(await healthzP99(base, 50)).toBeLessThan(underAttackBound(baseline));
      // Every one of them is closed by the server (the client sees 1009 or an abort, by timing).
      await attack.closed;
    });
  });

  describe('after the session', () => {
    it('answers deeply nested JSON with an error frame and stays usable', async () => {
      const socket = await connect(ssid.taro!);
      socket.send(`{"type":"text","message":${nested(50)}}`);
      expect(await socket.take<ErrorFrame>(isError)).toEqual({
        type: 'error',
        error: ja.errors.malformedJson,
      });
      await barrier(socket);
    });

    it.each([
      ['U+0000', 'a\u0000b'],
      ['a lone high surrogate', 'a\ud800b'],
      ['a lone low surrogate', '\udc00'],
    ])('refuses a message with %s with its own text and stores nothing', async (_case, body) => {
      const socket = await connect(ssid.taro!);
      const before = await messageCount(manDesk);
      const frame = text(manDesk, body);
      socket.send(frame);
      expect(await socket.take<ErrorFrame>(isError)).toEqual({
        type: 'error',
        error: ja.errors.unstorableText,
        client_id: frame.client_id,
      });
      expect(await messageCount(manDesk)).toBe(before);
    });

    // Ids are bounded to the int4 column range by the contract: a larger one is bad input, never a 5xx.
    it.each([2 ** 31, 2 ** 53 - 1])('answers talk id %d as bad input', async (id) => {
      const socket = await connect(ssid.taro!);
      socket.send(text(id, 'こんにちは'));
      expect((await socket.take<ErrorFrame>(isError)).error).toBe(ja.errors.badRequest);
      socket.send({ type: 'open', conversation_id: id });
      expect((await socket.take<ErrorFrame>(isError)).error).toBe(ja.errors.badRequest);
      socket.send({ type: 'delete', delete_message_id: id });
      expect((await socket.take<ErrorFrame>(isError)).error).not.toBe(ja.errors.internal);
    });
  });

  describe('fair use per member', () => {
    it(`closes socket ${SOCKET_MAX_PER_USER + 1} of one user with 4429 and a Japanese reason`, async () => {
      for (let i = 0; i < SOCKET_MAX_PER_USER; i += 1) await connect(ssid.hanako!);
      // From another session of hers (another phone): counted by user, not by session.
      // Logged in first: a socket that waits for its session frame while a busy machine hashes the password
      // is closed for the wait (4401), which is not what this case is about.
      const session = await login(ctx.app, woman);
      const extra = await TestSocket.connect(base);
      extra.send({ type: 'session', session });
      expect(await extra.closed).toEqual({
        code: SOCKET_CLOSE.tooManySockets,
        reason: ja.errors.tooManySockets,
      });
      // Another user is not affected.
      await connect(ssid.taro!);
    });

    it('refuses more sockets for a session holding the most without reading it, and seats one after a close', async () => {
      const sockets: TestSocket[] = [];
      for (let i = 0; i < SOCKET_MAX_PER_USER; i += 1) sockets.push(await connect(ssid.hanako!));
      const reads = vi.spyOn(ctx.app.services.sessions, 'resolve');
      try {
        for (let i = 0; i < 3; i += 1) {
          const extra = await TestSocket.connect(base);
          extra.send({ type: 'session', session: ssid.hanako });
          expect(await extra.closed).toEqual({
            code: SOCKET_CLOSE.tooManySockets,
            reason: ja.errors.tooManySockets,
          });
        }
        // A flood of attempts costs the database nothing.
        expect(reads).not.toHaveBeenCalled();
      } finally {
        reads.mockRestore();
      }
      await sockets[0]!.close();
      // Once the server has seen the close, the seat is free again.
      await expect
        .poll(async () => {
          try {
            open.push(await TestSocket.session(base, ssid.hanako!));
            return 'seated';
          } catch {
            return 'refused';
          }
        })
        .toBe('seated');
    });

    it('answers messages past the burst with an error frame, stores none of them, and refills', async () => {
      // A stopped clock (the server's and the limiter's time of day): the rate comes back only when the test
      // moves time.
      let now = Date.now();
      vi.useFakeTimers({ toFake: ['Date'], now });
      onTestFinished(() => void vi.useRealTimers());
      const app = await ctx.buildApp({ CHAT_MESSAGE_BURST: '3', CHAT_MESSAGES_PER_SECOND: '1' }, () => now);
      const socket = await TestSocket.session(await listen(app), ssid.jiro!);
      const before = await messageCount(outsiderDesk);
      const frames = Array.from({ length: 5 }, (_, i) => text(outsiderDesk, `連投 ${i}`));
      for (const frame of frames) socket.send(frame);
      for (const frame of frames.slice(0, 3)) await socket.take(isMessage(frame.client_id));
      for (const frame of frames.slice(3)) {
        expect(await socket.take<ErrorFrame>(isError)).toEqual({
          type: 'error',
          error: ja.errors.sendingTooFast,
          client_id: frame.client_id,
        });
      }
      expect(await messageCount(outsiderDesk)).toBe(before + 3);
      // One second gives one message back: one message more, not a new burst.
      now += 1000;
      vi.setSystemTime(now);
      const [next, after] = [text(outsiderDesk, '一秒後'), text(outsiderDesk, 'もう一つ')];
      socket.send(next);
      socket.send(after);
      await socket.take(isMessage(next.client_id));
      expect((await socket.take<ErrorFrame>(isError)).client_id).toBe(after.client_id);
      expect(await messageCount(outsiderDesk)).toBe(before + 4);
      await socket.close();
    });

    it("answers images past the member's image limit with an error frame and stores nothing", async () => {
      const app = await ctx.buildApp({ CHAT_IMAGE_BURST: '1' });
      const socket = await TestSocket.session(await listen(app), ssid.jiro!);
      const before = await messageCount(outsiderDesk);
      const png = dataUrl(await pngOf(4, 4));
      const frame = text(outsiderDesk, '', { image: [png, png] });
      socket.send(frame);
      expect(await socket.take<ErrorFrame>(isError)).toEqual({
        type: 'error',
        error: ja.errors.imagesTooFast,
        client_id: frame.client_id,
      });
      expect(await messageCount(outsiderDesk)).toBe(before);
      await socket.close();
    });

    it('takes frames of pictures sent at once on two sockets of one member one after the other, and stores both', async () => {
      const app = await ctx.buildApp({ CHAT_IMAGE_BURST: '20' });
      const server = await listen(app);
      const sockets = [
        await TestSocket.session(server, ssid.jiro!),
        await TestSocket.session(server, ssid.jiro!),
      ];
      const picture = dataUrl(await noisePng(400_000));
      const frames = sockets.map((_, i) => text(outsiderDesk, `二枚 ${i}`, { image: [picture, picture] }));
      expect(JSON.stringify(frames[0]).length).toBeGreaterThan(1024 * 1024);
      const before = await messageCount(outsiderDesk);
      sockets.forEach((socket, i) => socket.send(frames[i]));
      // A third socket's message is not held up by them.
      const talk = await TestSocket.session(server, ssid.jiro!);
      await say(talk, outsiderDesk, '写真の合間に');
      for (const [i, socket] of sockets.entries()) {
        const stored = await socket.take<MessageFrame>(isMessage(frames[i]!.client_id), 30_000);
        expect(stored.image).toHaveLength(2);
      }
      expect(await messageCount(outsiderDesk)).toBe(before + 3);
      await closeAll([...sockets, talk]);
    });

    it("takes in, of frames of pictures begun at once on two sockets, only what the member's budget has room for, and never copies the other", async () => {
      const now = Date.now();
      // Room for one picture, and none comes back while the test runs.
      const app = await ctx.buildApp({ CHAT_IMAGE_BURST: '1' }, () => now);
      const server = await listen(app);
      const sockets = [
        await TestSocket.session(server, ssid.jiro!),
        await TestSocket.session(server, ssid.jiro!),
      ];
      const picture = dataUrl(await noisePng(800_000));
      const frames = sockets.map((_, i) => text(outsiderDesk, `一枚 ${i}`, { image: [picture] }));
      const frameBytes = Buffer.byteLength(JSON.stringify(frames[0]));
      expect(frameBytes).toBeGreaterThan(1024 * 1024);
      const before = await messageCount(outsiderDesk);
      const allocations = vi.spyOn(Buffer, 'allocUnsafe');
      try {
        sockets.forEach((socket, i) => socket.send(frames[i]));
        const answers = await Promise.all(
          sockets.map((socket, i) =>
            Promise.race([
              socket.take<MessageFrame>(isMessage(frames[i]!.client_id), 30_000),
              socket.take<ErrorFrame>(isError, 30_000),
            ]),
          ),
        );
        const stored = answers.filter((answer) => answer.type === 'message');
        expect(stored).toHaveLength(1);
        expect(answers.filter((answer) => answer.type === 'error')).toEqual([
          { type: 'error', error: ja.errors.imagesTooFast },
        ]);
        expect(await messageCount(outsiderDesk)).toBe(before + 1);
        // Only the frame taken in was copied out of the chunks it arrived in.
        expect(allocations.mock.calls.filter(([size]) => size === frameBytes)).toHaveLength(1);
      } finally {
        allocations.mockRestore();
      }
      await closeAll(sockets);
    });

    it('refuses a frame of over 1 MB unread while the member has no picture left, then reads nothing for a while', async () => {
      const now = Date.now();
      vi.useFakeTimers({ toFake: ['Date'], now });
      onTestFinished(() => void vi.useRealTimers());
      // The clock stands still: no picture comes back. One a second, a burst of one: once refused, the
      // socket is left unread for one second (real time).
      const app = await ctx.buildApp({ CHAT_IMAGE_BURST: '1', CHAT_IMAGES_PER_MINUTE: '60' }, () => now);
      const socket = await TestSocket.session(await listen(app), ssid.jiro!);
      const picture = text(outsiderDesk, '', { image: [dataUrl(await pngOf(4, 4))] });
      socket.send(picture);
      await socket.take(isMessage(picture.client_id));
      const before = await messageCount(outsiderDesk);
      // Its bytes would be a picture; it is not parsed, so it is answered without a client id.
      socket.send(text(outsiderDesk, 'x'.repeat(1024 * 1024)));
      expect(await socket.take<ErrorFrame>(isError)).toEqual({
        type: 'error',
        error: ja.errors.imagesTooFast,
      });
      const refusedAt = performance.now();
      expect(await messageCount(outsiderDesk)).toBe(before);
      // Sent while the socket is held: taken in (and stored: nothing is lost) only once the hold is over.
      const after = text(outsiderDesk, '待っていた一言');
      socket.send(after);
      await socket.take(isMessage(after.client_id));
      expect(performance.now() - refusedAt).toBeGreaterThanOrEqual(900);
      await socket.close();
    });
  });
});
