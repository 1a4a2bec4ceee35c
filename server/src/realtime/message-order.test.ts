import { randomUUID } from 'node:crypto';
import type { ServerFrame } from '@enishi/contract';
import fc from 'fast-check';
import type { FastifyInstance } from 'fastify';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, createUser, login, type TestContext, type TestUser } from '../test/app.js';
import { TestBus, type BusEndpoint } from '../test/bus.js';
import { closeAll, listen, TestSocket } from '../test/socket.js';
import { actorOf, deskOf } from '../test/talk.js';

type MessageFrame = Extract<ServerFrame, { type: 'message' }>;

/** The promise of decision 019: a committed message reaches a reader on any instance within this. */
const WITHIN_MS = 2000;

/*
 * Two instances on one database, joined by a test bus whose publishes a test can hold or lose (a writer
 * that died after its commit). Each instance orders new messages as it does behind Redis.
 */
describe('new messages across instances (decision 019)', () => {
  let ctx: TestContext;
  const bus = new TestBus();
  let busA: BusEndpoint;
  let busB: BusEndpoint;
  let a: FastifyInstance;
  let b: FastifyInstance;
  let baseA: string;
  let baseB: string;
  let admin: TestUser;
  let man: TestUser;
  let woman: TestUser;
  const ssid: Record<string, string> = {};
  let manDesk: number;
  let womanDesk: number;
  let groupTalk: number;
  const open: TestSocket[] = [];

  beforeAll(async () => {
    busA = bus.endpoint();
    busB = bus.endpoint();
    ctx = await createTestContext({ deps: { fanout: busA } });
    a = ctx.app;
    b = await ctx.buildApp({}, undefined, { fanout: busB });
    admin = await createUser(a, { loginId: 'admin', role: 1, name: '管理者' });
    man = await createUser(a, { loginId: 'taro', role: 101, name: '山田 太郎' });
    woman = await createUser(a, { loginId: 'hanako', role: 201, name: '佐藤 花子' });
    for (const user of [admin, man, woman]) ssid[user.loginId] = await login(a, user);
    manDesk = await deskOf(a, ssid.taro!);
    womanDesk = await deskOf(a, ssid.hanako!);
    groupTalk = (
      await a.services.conversations.createGroupTalk(await actorOf(a, ssid.admin!), {
        manId: man.uid,
        womanId: woman.uid,
      })
    ).id;
    baseA = await listen(a);
    baseB = await listen(b);
  });

  afterEach(async () => {
    busA.release();
    busB.release();
    await closeAll(open.splice(0));
  });

  afterAll(() => ctx.close());

  async function connect(base: string, session: string, lastId: number | null = null) {
    const socket = await TestSocket.session(base, session, { last_id: lastId });
    open.push(socket);
    return socket;
  }

  /** Stores a message on `app` as its chat socket would; answers the message id. */
  async function post(
    app: FastifyInstance,
    session: string,
    conversationId: number,
    clientId = randomUUID(),
  ) {
    const result = await app.services.messages.send(await actorOf(app, session), {
      type: 'text',
      conversation_id: conversationId,
      message: `m ${clientId.slice(0, 8)}`,
      image: [],
      reply: null,
      announce: false,
      client_id: clientId,
    });
    if (result.outcome === 'deleted') throw new Error('the talk is gone');
    return result.message.id;
  }

  const messageWith = (id: number) => (frame: ServerFrame) => frame.type === 'message' && frame.id === id;
  const messageIds = (socket: TestSocket) =>
    socket.received.flatMap((frame) => (frame.type === 'message' ? [frame.id] : []));

  it('reaches readers on the other instance when the writer never publishes it', async () => {
    const reader = await connect(baseB, ssid.admin!);
    busA.mode = 'drop';
    const id = await post(a, ssid.taro!, manDesk);
    await reader.take<MessageFrame>(messageWith(id), WITHIN_MS);
  });

  it('hands on a message after the one before it, read from the database when its publish is lost', async () => {
    const reader = await connect(baseB, ssid.admin!);
    busA.mode = 'drop';
    const lost = await post(a, ssid.taro!, manDesk);
    const later = await post(b, ssid.hanako!, womanDesk);
    await reader.take(messageWith(later), WITHIN_MS);
    const ids = messageIds(reader);
    expect(ids).toEqual([lost, later]);
  });

  it('delivers a resend answered as a duplicate to readers who do not have the message', async () => {
    const reader = await connect(baseB, ssid.admin!);
    busA.mode = 'drop';
    const clientId = randomUUID();
    const id = await post(a, ssid.taro!, manDesk, clientId);
    // The sender's outbox sends it again, to the other instance: the same message, not a second one.
    expect(await post(b, ssid.taro!, manDesk, clientId)).toBe(id);
    await reader.take(messageWith(id), WITHIN_MS);
    const after = await post(b, ssid.taro!, manDesk);
    await reader.take(messageWith(after), WITHIN_MS);
    expect(messageIds(reader)).toEqual([id, after]);
  });

  it('does not send a caught-up message again when its publish comes after the catch-up', async () => {
    const before = await post(a, ssid.taro!, manDesk);
    busA.mode = 'hold';
    const late = await post(a, ssid.taro!, manDesk);
    // Instance B has not heard of `late` when the reader connects: the catch-up sends it from the database.
    const reader = await connect(baseB, ssid.admin!, before);
    expect(messageIds(reader)).toEqual([late]);
    busA.release();
    const next = await post(a, ssid.taro!, manDesk);
    await reader.take(messageWith(next), WITHIN_MS);
    expect(messageIds(reader)).toEqual([late, next]);
  });

  it('every reader gets every message of their talks once, across reconnects (property)', async () => {
    const talks = {
      admin: [manDesk, womanDesk, groupTalk],
      taro: [manDesk, groupTalk],
      hanako: [womanDesk, groupTalk],
    };
    const writers: [string, number][] = [
      ['admin', manDesk],
      ['admin', groupTalk],
      ['taro', manDesk],
      ['taro', groupTalk],
      ['hanako', womanDesk],
      ['hanako', groupTalk],
    ];
    const readers = Object.keys(talks) as (keyof typeof talks)[];
    const step = fc.oneof(
      fc.record({ kind: fc.constant('write' as const), on: fc.nat(1), writer: fc.nat(writers.length - 1) }),
      fc.record({
        kind: fc.constant('reconnect' as const),
        reader: fc.nat(readers.length - 1),
        on: fc.nat(1),
      }),
      fc.record({
        kind: fc.constant('mode' as const),
        on: fc.nat(1),
        mode: fc.constantFrom('pass', 'hold', 'drop'),
      }),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 5, maxLength: 25 }), async (steps) => {
        const apps = [a, b];
        const ends = [busA, busB];
        const bases = [baseA, baseB];
        const state = readers.map(() => ({
          socket: null as TestSocket | null,
          newest: 0,
          start: 0,
          got: [] as number[],
        }));
        const take = (index: number) => {
          const reader = state[index]!;
          if (!reader.socket) return;
          for (const frame of reader.socket.received)
            if (frame.type === 'message') reader.got.push(frame.id);
            else if (frame.type === 'ready') reader.newest = Math.max(reader.newest, frame.last_id);
          reader.newest = Math.max(reader.newest, ...reader.got);
          reader.socket.received.length = 0;
        };
        const reconnect = async (index: number, on: number) => {
          take(index);
          await state[index]!.socket?.close();
          const socket = await connect(
            bases[on]!,
            ssid[readers[index]!]!,
            state[index]!.socket ? state[index]!.newest : null,
          );
          if (!state[index]!.socket) {
            const ready = socket.received.find((frame) => frame.type === 'ready');
            state[index]!.start = ready?.type === 'ready' ? ready.last_id : 0;
          }
          state[index]!.socket = socket;
        };
        for (let index = 0; index < readers.length; index += 1) await reconnect(index, index % 2);
        const written: { id: number; talk: number }[] = [];
        for (const each of steps) {
          if (each.kind === 'write') {
            const [writer, talk] = writers[each.writer]!;
            written.push({ id: await post(apps[each.on]!, ssid[writer]!, talk), talk });
          } else if (each.kind === 'reconnect') await reconnect(each.reader, each.on);
          else if (each.mode === 'pass') ends[each.on]!.release();
          else ends[each.on]!.mode = each.mode;
        }
        busA.release();
        busB.release();
        for (let index = 0; index < readers.length; index += 1) {
          const reader = state[index]!;
          const expected = written
            .filter(({ id, talk }) => id > reader.start && talks[readers[index]!].includes(talk))
            .map(({ id }) => id);
          // Lost publishes are read from the database within the promise; the last one's arrival ends the wait.
          const last = expected.at(-1);
          if (last !== undefined && !reader.got.includes(last))
            await reader.socket!.take(messageWith(last), WITHIN_MS);
          take(index);
          // A socket opened without `last_id` may also get older messages live (the app loads those by HTTP).
          expect(reader.got.filter((id) => id > reader.start)).toEqual(expected);
        }
        await closeAll(state.map((reader) => reader.socket!));
      }),
      { numRuns: 12 },
    );
  }, 120_000);
});
