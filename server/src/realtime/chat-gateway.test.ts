import { count, inArray, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../db/client.js';
import type { Services } from '../composition/container.js';
import { messages } from '../db/schema.js';
import { MESSAGE_ORDER_LOCK } from '../repositories/message-batch-repository.js';
import { ctx, isMessage, manDesk, ssid, text, useChatClub, type MessageFrame } from '../test/chat-club.js';
import { listen, TestSocket } from '../test/socket.js';
import { ChatGateway, type HeldSocket } from './chat-gateway.js';

/**
 * Holds the message order lock in a transaction of its own until released: a batch of messages waits for
 * it at the database (on PGlite, one session, every query waits for the transaction).
 */
async function holdMessageOrder(db: Database): Promise<{ release(): void; done: Promise<void> }> {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  let held!: () => void;
  const holding = new Promise<void>((resolve) => (held = resolve));
  const done = db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${MESSAGE_ORDER_LOCK})`);
    held();
    await released;
  });
  await Promise.race([holding, done]);
  return { release, done };
}

/**
 * Resolves once the app answers 503: its shutdown has begun, and the drain with it (Fastify closes its
 * routes and starts the preClose hooks in one step). Each try waits for the server's answer.
 */
async function shutdownBegun(baseUrl: string): Promise<void> {
  for (let attempt = 0; attempt < 1000; attempt += 1) {
    if ((await fetch(`${baseUrl}/api/version`, { method: 'POST' })).status === 503) return;
  }
  throw new Error('the server never began to shut down');
}

describe('chat socket: shutting down', () => {
  useChatClub();

  it('commits every frame accepted before it stopped, echoed or not, exactly once, then closes with 1001', async () => {
    const other = await ctx.buildApp({}, undefined, { socketAuthTimeoutMs: 300 });
    const otherBase = await listen(other);
    const socket = await TestSocket.session(otherBase, ssid.taro!);
    const [serverSide] = other.websocketServer.clients;
    const frames = Array.from({ length: 5 }, (_, i) => text(manDesk, `終了間際 ${i}`));
    // The connection's own listener on the server's socket came first: a frame counted here was accepted.
    const accepted = new Promise<void>((resolve) => {
      let received = 0;
      serverSide!.on('message', () => {
        received += 1;
        if (received === frames.length) resolve();
      });
    });

    // With the order lock held, the first frame's batch waits at the database and the others in the queue.
    const hold = await holdMessageOrder(ctx.database.db);
    for (const frame of frames) socket.send(frame);
    await accepted;
    expect(socket.received.filter(isMessage())).toEqual([]);
    const stopping = other.close();
    await shutdownBegun(otherBase);
    hold.release();
    await Promise.all([stopping, hold.done]);
    expect((await socket.closed).code).toBe(1001);

    const clientIds = frames.map((frame) => frame.client_id);
    const echoed = socket.received.filter(isMessage()).map((frame) => (frame as MessageFrame).client_id);
    expect(echoed.sort()).toEqual([...clientIds].sort());
    const stored = await ctx.database.db
      .select({ clientId: messages.clientId, n: count() })
      .from(messages)
      .where(inArray(messages.clientId, clientIds))
      .groupBy(messages.clientId);
    expect(stored.map((row) => row.n)).toEqual(clientIds.map(() => 1));
  });
});

describe('chat gateway: frames of pictures', () => {
  it('lets one socket of a member take in a frame of pictures at a time, in the order they began', async () => {
    // Turns touch neither the services nor the log.
    const gateway = new ChatGateway({} as Services, {} as FastifyBaseLogger, 1000, Date.now, 60_000);
    const came: string[] = [];
    const socket = (name: string): HeldSocket => ({
      closeIfExpired: () => {},
      sessionExpired: () => false,
      pictureTurnCame: () => came.push(name),
    });
    const [a, b, c, other] = [socket('a'), socket('b'), socket('c'), socket('other')];
    expect(gateway.takePictureTurn(1, a)).toBe(true);
    expect(gateway.takePictureTurn(1, b)).toBe(false);
    expect(gateway.takePictureTurn(1, c)).toBe(false);
    // Another member's frames do not wait for this one's.
    expect(gateway.takePictureTurn(2, other)).toBe(true);
    // One that gave up before its turn (its socket closed) is passed over.
    gateway.givePictureTurn(1, c);
    expect(came).toEqual([]);
    gateway.givePictureTurn(1, a);
    expect(came).toEqual(['b']);
    gateway.givePictureTurn(1, b);
    expect(came).toEqual(['b']);
    expect(gateway.takePictureTurn(1, a)).toBe(true);
    await gateway.drain();
  });
});
