import { randomUUID } from 'node:crypto';
import { SOCKET_CLOSE, type ServerFrame } from '@enishi/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AckCounter, StreamingClient } from './test/cluster-clients.js';
import { MEMBER, OWNER, startCluster, type Cluster } from './test/cluster.js';
import { firstConversation, loginAs } from './test/http-client.js';
import { testRedisUrl } from './test/redis.js';
import { TestSocket } from './test/socket.js';
import { startRedisRelay, type RedisRelay } from './test/redis-relay.js';

/*
 * Several instances behind HAProxy (product.md §20): real PostgreSQL (TEST_DATABASE_URL), Redis
 * (TEST_REDIS_URL) and haproxy, all on 127.0.0.1. Needs the Debian package haproxy.
 */

const KILLS = 10;
/** Echoes between two kills: the kill lands while frames are in flight. */
const ACKS_PER_KILL = 20;
const IN_FLIGHT = 3;
/** A committed message reaches every reader within this, whichever instance stored it (decision 019). */
const DELIVERY_MS = 2000;

type Frame<T extends ServerFrame['type']> = Extract<ServerFrame, { type: T }>;

describe.skipIf(!process.env.TEST_DATABASE_URL)('two instances behind HAProxy', () => {
  let cluster: Cluster;
  let memberSsid: string;
  let ownerSsid: string;
  let desk: number;

  let relay: RedisRelay;

  beforeAll(async () => {
    // The first instance reaches Redis through a relay, so a test can hold what it publishes.
    const redisUrl = testRedisUrl(14);
    relay = await startRedisRelay(Number(new URL(redisUrl).port || 6379));
    const relayed = new URL(redisUrl);
    relayed.port = String(relay.port);
    cluster = await startCluster(2, redisUrl, {
      redisUrlOf: (index) => (index === 0 ? relayed.toString() : redisUrl),
    });
    memberSsid = await loginAs(cluster.balancer.url, MEMBER);
    ownerSsid = await loginAs(cluster.balancer.url, OWNER);
    desk = await firstConversation(cluster.balancer.url, memberSsid, 'staff');
  }, 120_000);
  afterAll(async () => {
    await cluster?.stop();
    await relay?.close();
  });

  it('delivers a message whose writer was killed before it could publish it', async () => {
    const [a, b] = cluster.instances.map((each) => `http://127.0.0.1:${each.port}`);
    const member = await TestSocket.session(a!, memberSsid, { origin: cluster.origin });
    const staff = await TestSocket.session(b!, ownerSsid, { origin: cluster.origin });
    relay.holdPublishes();
    try {
      const clientId = randomUUID();
      member.send({
        type: 'text',
        conversation_id: desk,
        message: '最後のひとこと',
        image: [],
        reply: null,
        announce: false,
        client_id: clientId,
      });
      // The echo comes from the instance itself once the message is committed; its publish waits in the relay.
      const echo = await member.take<Frame<'message'>>(
        (f) => f.type === 'message' && f.client_id === clientId,
      );
      await cluster.kill(0);
      const seen = await staff.take<Frame<'message'>>(
        (f) => f.type === 'message' && f.id === echo.id,
        DELIVERY_MS,
      );
      expect(seen.message).toBe('最後のひとこと');
    } finally {
      relay.release();
      await staff.close();
      await cluster.restart(0);
    }
  });

  it('refuses, on the other instance\u2019s very next call, a session logged out or ended on one (sessions cached in memory)', async () => {
    const [a, b] = cluster.instances.map((each) => `http://127.0.0.1:${each.port}`) as [string, string];
    const post = async (base: string, name: string, body: unknown) => {
      const reply = await fetch(`${base}/api/${name}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      return { status: reply.status, body: (await reply.json()) as Record<string, unknown> };
    };
    const uid = (await post(a, 'login', MEMBER)).body.uid as number;
    const cachedOnB = async (ssid: string) => {
      for (let i = 0; i < 2; i += 1)
        expect((await post(b, 'auth', { ssid, uid })).body.status).toBe('accepted');
    };
    const refusedOnB = async (ssid: string) => {
      expect((await post(b, 'auth', { ssid, uid })).body.status).toBe('rejected');
      expect((await post(b, 'config', { ssid })).status).toBe(401);
    };

    const loggingOut = await loginAs(a, MEMBER);
    await cachedOnB(loggingOut);
    expect((await post(a, 'logout', { ssid: loggingOut })).status).toBe(200);
    await refusedOnB(loggingOut);

    const lost = await loginAs(a, MEMBER);
    await cachedOnB(lost);
    // The lost phone's socket is on the other instance: ended there too, with 4403, within 5 s (§11.6).
    const lostSocket = await TestSocket.session(b, lost, { origin: cluster.origin });
    const rows = (await post(a, 'sessions', { ssid: lost })).body.rows as { id: string; current: boolean }[];
    const id = rows.find((row) => row.current)!.id;
    expect((await post(a, 'sessions/revoke', { ssid: memberSsid, id })).status).toBe(200);
    await refusedOnB(lost);
    const closedWithin = await Promise.race([
      lostSocket.closed,
      new Promise<null>((resolve) => setTimeout(() => resolve(null), 5000).unref()),
    ]);
    expect(closedWithin?.code).toBe(SOCKET_CLOSE.sessionEnded);

    const phone = await loginAs(a, MEMBER);
    await cachedOnB(phone);
    expect((await post(a, 'sessions/revoke_others', { ssid: memberSsid })).status).toBe(200);
    await refusedOnB(phone);
    expect((await post(b, 'auth', { ssid: memberSsid, uid })).body.status).toBe('accepted');
  });

  it('delivers messages, deletions, read marks and badges between a member on one and staff on the other', async () => {
    const [a, b] = cluster.instances.map((each) => `http://127.0.0.1:${each.port}`);
    const member = await TestSocket.session(a!, memberSsid, { origin: cluster.origin });
    const staff = await TestSocket.session(b!, ownerSsid, { origin: cluster.origin });
    const text = (message: string, clientId: string) => ({
      type: 'text',
      conversation_id: desk,
      message,
      image: [],
      reply: null,
      announce: false,
      client_id: clientId,
    });

    member.send(text('はじめまして', randomUUID()));
    const echo = await member.take<Frame<'message'>>((f) => f.type === 'message' && f.own);
    const seen = await staff.take<Frame<'message'>>((f) => f.type === 'message');
    expect(seen).toMatchObject({ id: echo.id, message: 'はじめまして', own: false });
    await staff.take<Frame<'notifications'>>((f) => f.type === 'notifications' && f.fromMen >= 1);

    staff.send({ type: 'open', conversation_id: desk, conversation_type: 'men' });
    const read = await member.take<Frame<'read'>>((f) => f.type === 'read');
    expect(read).toMatchObject({ conversation_id: desk, last_read_id: echo.id });

    staff.send(text('ようこそ', randomUUID()));
    const reply = await member.take<Frame<'message'>>((f) => f.type === 'message' && !f.own);
    expect(reply.message).toBe('ようこそ');
    await member.take<Frame<'notifications'>>((f) => f.type === 'notifications' && f.fromStaff >= 1);

    member.send({ type: 'delete', delete_message_id: echo.id });
    const deleted = await staff.take<Frame<'delete'>>((f) => f.type === 'delete');
    expect(deleted).toMatchObject({ conversation_id: desk, delete_message_id: echo.id });
    await Promise.all([member.close(), staff.close()]);
  });

  it('rings, connects and records a voice call between a member on one and staff on the other', async () => {
    const [a, b] = cluster.instances.map((each) => `http://127.0.0.1:${each.port}`);
    const member = await TestSocket.session(a!, memberSsid, { origin: cluster.origin });
    const staff = await TestSocket.session(b!, ownerSsid, { origin: cluster.origin });
    const ownerUid = (
      await member.take<Frame<'updateConnection'>>((f) => f.type === 'updateConnection' && f.isOnline)
    ).uid;
    staff.send({ type: 'staff' });
    const rows = (await staff.take<Frame<'staff'>>((f) => f.type === 'staff')).rows;
    expect(rows.find((row) => row.uid === ownerUid)?.isOnline).toBe(true);

    member.send({ type: 'calling', to: ownerUid });
    const calling = await staff.take<Frame<'calling'>>((f) => f.type === 'calling');
    await member.take((f) => f.type === 'ringing');
    staff.send({ type: 'offer', to: calling.from.uid, sdp: 'v=0' });
    expect(await member.take((f) => f.type === 'offer')).toMatchObject({
      from: { uid: ownerUid },
      sdp: 'v=0',
    });
    member.send({ type: 'answer', to: ownerUid, sdp: 'v=0' });
    await staff.take((f) => f.type === 'answer');
    member.send({ type: 'cancelCall', to: ownerUid });
    await staff.take((f) => f.type === 'cancelCall' && f.reason === 'ended');
    const record = await member.take<Frame<'message'>>((f) => f.type === 'message' && f.message_type === 1);
    expect(record).toMatchObject({
      conversation_id: desk,
      from: ownerUid,
      message: expect.stringMatching(/^通話 \d+秒$/),
    });
    await Promise.all([member.close(), staff.close()]);
  });

  it(
    `loses and doubles no acknowledged message while instances are killed ${KILLS} times`,
    { timeout: 300_000 },
    async () => {
      const acks = new AckCounter();
      const { url } = cluster.balancer;
      const clients = [
        new StreamingClient(url, cluster.origin, memberSsid, desk, IN_FLIGHT, acks.onAck),
        new StreamingClient(url, cluster.origin, ownerSsid, desk, IN_FLIGHT, acks.onAck),
      ];
      // As the web app opens a talk: from the newest message it already has. Without last_id a socket starts
      // at the newest when it is live (product.md §15), so what one client sent before the other was live
      // would be history to it, not a live message.
      const probe = await TestSocket.session(url, ownerSsid, { origin: cluster.origin });
      const newest = probe.received.find((frame) => frame.type === 'ready') as Frame<'ready'>;
      await probe.close();
      for (const client of clients) client.start(newest.last_id);

      for (let kill = 0; kill < KILLS; kill += 1) {
        await acks.reach((kill + 1) * ACKS_PER_KILL);
        await cluster.killAndRestart(kill % cluster.instances.length);
      }
      await acks.reach((KILLS + 1) * ACKS_PER_KILL);
      await Promise.all(clients.map((client) => client.finish()));
      const [member, staff] = clients as [StreamingClient, StreamingClient];
      // Each side sees every message the other had acknowledged, live (decision 019), even those an instance
      // committed and was killed before publishing.
      await Promise.all([
        staff.sees([...member.acked.values()], DELIVERY_MS),
        member.sees([...staff.acked.values()], DELIVERY_MS),
      ]);
      for (const client of clients) client.close();

      // What is stored, read back through the balancer from the beginning.
      const reader = await TestSocket.session(url, ownerSsid, { last_id: 0, origin: cluster.origin });
      const stored = new Map<string, number[]>();
      for (const frame of reader.received)
        if (frame.type === 'message' && frame.client_id)
          stored.set(frame.client_id, [...(stored.get(frame.client_id) ?? []), frame.id]);
      await reader.close();

      for (const client of clients) {
        expect(client.reconnects).toBeGreaterThan(0);
        expect(client.mismatches).toEqual([]);
        // Every frame sent was stored once, under the id its first echo named.
        for (const clientId of client.sent)
          expect(stored.get(clientId)).toEqual([client.acked.get(clientId)]);
        // No message reached a client twice across all its reconnections, but for the answers to its own
        // re-sent frames (one answer a frame).
        expect(client.doubles()).toEqual([]);
      }
      for (const [sender, receiver] of [
        [member, staff],
        [staff, member],
      ] as const) {
        expect([...sender.acked.values()].filter((id) => !receiver.received.has(id))).toEqual([]);
      }
    },
  );
});
