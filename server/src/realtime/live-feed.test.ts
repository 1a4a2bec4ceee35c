import type { ServerFrame } from '@enishi/contract';
import { describe, expect, it } from 'vitest';
import type { Services } from '../composition/container.js';
import type { Actor } from '../services/session-service.js';
import type { RealtimeEvent } from '../bus/events.js';
import { LiveFeed, MAX_HELD_EVENTS, type FedSocket } from './live-feed.js';

/*
 * A socket's live events are held while its catch-up is sent (product.md §15): a catch-up that takes long
 * while the club goes on writing must not close the socket before it is live, up to MAX_HELD_EVENTS.
 */

const staff = { uid: 1, role: 3, sessionId: 'staff-session' } as Actor;

function feedWithSlowCatchUp() {
  let deliver: (event: RealtimeEvent) => void = () => {};
  let finishRead: () => void = () => {};
  const read = new Promise<void>((resolve) => (finishRead = resolve));
  const services = {
    delivery: {
      subscribe: (_topics: string[], handler: (event: RealtimeEvent) => void) => {
        deliver = handler;
        return () => {};
      },
    },
    messages: {
      newestVisibleId: async () => 10,
      moreVisibleAfter: async () => false,
      // The catch-up's read is out until the test lets it end.
      after: async () => {
        await read;
        return [];
      },
    },
  } as unknown as Services;
  const socket = {
    closed: false,
    closedWith: null as number | null,
    actor: staff,
    frames: [] as ServerFrame[],
    openConversationId: null,
    socketId: 'socket-1',
    send(frame: ServerFrame) {
      this.frames.push(frame);
    },
    sendJson() {},
    close(code: number) {
      this.closed = true;
      this.closedWith = code;
    },
    alreadySent: () => false,
    markOpenTalkRead() {},
    userChanged() {},
    carryCall() {},
  };
  const feed = new LiveFeed(services, socket as unknown as FedSocket);
  return { feed, socket, deliver: (event: RealtimeEvent) => deliver(event), finishRead };
}

const presence = (uid: number): RealtimeEvent => ({ event: 'presence.changed', uid, isOnline: true });

describe('live events held behind a catch-up', () => {
  it(`keeps ${MAX_HELD_EVENTS} events that came during a long catch-up and sends them all, in order, once live`, async () => {
    const { feed, socket, deliver, finishRead } = feedWithSlowCatchUp();
    feed.subscribe(staff);
    const caughtUp = feed.catchUp(staff, 0);
    for (let uid = 1; uid <= MAX_HELD_EVENTS; uid += 1) deliver(presence(uid));
    expect(socket.closed).toBe(false);
    expect(socket.frames).toEqual([]);
    finishRead();
    expect(await caughtUp).toBe(0);
    expect(socket.frames.map((frame) => (frame as { uid: number }).uid)).toEqual(
      Array.from({ length: MAX_HELD_EVENTS }, (_, index) => index + 1),
    );
  });

  it('closes a socket that falls further behind than that with 1013 (try again later)', async () => {
    const { feed, socket, deliver, finishRead } = feedWithSlowCatchUp();
    feed.subscribe(staff);
    const caughtUp = feed.catchUp(staff, 0);
    for (let uid = 1; uid <= MAX_HELD_EVENTS + 1; uid += 1) deliver(presence(uid));
    expect(socket.closedWith).toBe(1013);
    finishRead();
    expect(await caughtUp).toBeNull();
    expect(socket.frames).toEqual([]);
  });
});
