import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { ServerFrame } from '@enishi/contract';
import { afterAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { createPostgresDatabase, ENGINES } from './test/database.js';
import { firstConversation, loginAs } from './test/http-client.js';
import { freePort, runScript, startServerProcess, type ServerProcess } from './test/process.js';
import { newDataDir } from './test/template-database.js';

/*
 * Durability: a server killed with SIGKILL in the middle of a stream of messages keeps every message whose
 * echo the sender saw, exactly once, and a client re-sending its unanswered frames after the restart never
 * makes a duplicate.
 */

const OWNER = { id: 'owner', password: 'Owner-pass1' };
const MEMBER = { id: 'crash-member', password: 'Member-pass1' };
/** Frames each sender keeps in flight: the kill lands while some are unanswered. */
const IN_FLIGHT = 4;
/** Echoes to collect before the kill. */
const ACKS_BEFORE_KILL = 60;

type MessageFrame = Extract<ServerFrame, { type: 'message' }>;

/** An authenticated socket; resolves at `ready` with the frames that came before it (the catch-up). */
async function openSocket(
  server: ServerProcess,
  ssid: string,
  lastId: number | null,
): Promise<{ ws: WebSocket; catchUp: MessageFrame[] }> {
  const ws = new WebSocket(`${server.baseUrl.replace('http', 'ws')}/ws/chat`, { origin: server.baseUrl });
  const catchUp: MessageFrame[] = [];
  await new Promise<void>((resolve, reject) => {
    ws.once('error', reject);
    ws.once('close', (code) => reject(new Error(`closed ${code} before ready`)));
    ws.once('open', () => ws.send(JSON.stringify({ type: 'session', session: ssid, last_id: lastId })));
    const onFrame = (data: WebSocket.RawData) => {
      const frame = JSON.parse(data.toString()) as ServerFrame;
      if (frame.type === 'message') catchUp.push(frame);
      if (frame.type === 'ready') {
        ws.off('message', onFrame);
        ws.removeAllListeners('close');
        ws.removeAllListeners('error');
        ws.on('error', () => {});
        resolve();
      }
    };
    ws.on('message', onFrame);
  });
  return { ws, catchUp };
}

/**
 * Sends messages one after another, keeping a few in flight, until the socket dies. Records what was sent
 * and which client ids came back as the sender's own echo (acknowledged) with their ids.
 */
function streamMessages(ws: WebSocket, conversationId: number, label: string, onAck: () => void) {
  const sent: string[] = [];
  const acked = new Map<string, number>();
  const pending = new Set<string>();
  const sendNext = () => {
    if (ws.readyState !== WebSocket.OPEN) return;
    const clientId = randomUUID();
    sent.push(clientId);
    pending.add(clientId);
    ws.send(
      JSON.stringify({
        type: 'text',
        conversation_id: conversationId,
        message: `${label} ${sent.length}`,
        image: [],
        reply: null,
        announce: false,
        client_id: clientId,
      }),
    );
  };
  ws.on('message', (data) => {
    const frame = JSON.parse(data.toString()) as ServerFrame;
    if (frame.type !== 'message' || !frame.own || !frame.client_id || !pending.delete(frame.client_id))
      return;
    acked.set(frame.client_id, frame.id);
    onAck();
    sendNext();
  });
  for (let i = 0; i < IN_FLIGHT; i += 1) sendNext();
  return { sent, acked };
}

/** Every message the staff account may see, via a socket catch-up from id 0, as client id -> ids. */
async function storedByClientId(server: ServerProcess, ssid: string): Promise<Map<string, number[]>> {
  const { ws, catchUp } = await openSocket(server, ssid, 0);
  ws.close();
  const stored = new Map<string, number[]>();
  for (const message of catchUp) {
    if (message.client_id)
      stored.set(message.client_id, [...(stored.get(message.client_id) ?? []), message.id]);
  }
  const ids = catchUp.map((message) => message.id);
  expect([...ids].sort((a, b) => a - b)).toEqual(ids);
  return stored;
}

describe.each(ENGINES)('after SIGKILL (%s)', (engine) => {
  const cleanups: (() => Promise<unknown>)[] = [];
  afterAll(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
  });

  it(
    'keeps every acknowledged message exactly once, and re-sent frames make no duplicates',
    // 70 s alone on a loaded machine; room for a shuffled run beside other suites.
    { timeout: 240_000 },
    async () => {
      const dataDir =
        engine === 'pglite'
          ? newDataDir('enishi-crash-')
          : await mkdtemp(path.join(tmpdir(), 'enishi-crash-'));
      cleanups.push(() => rm(dataDir, { recursive: true, force: true }));
      const port = await freePort();
      const env: NodeJS.ProcessEnv = {
        ...process.env,
        PORT: String(port),
        HOST: '127.0.0.1',
        DATA_DIR: dataDir,
        PUBLIC_ORIGIN: `http://127.0.0.1:${port}`,
        OWNER_ID: OWNER.id,
        OWNER_PASSWORD: OWNER.password,
        LOG_LEVEL: 'info',
        WEB_DIST: path.join(dataDir, 'no-web'),
      };
      delete env.DATABASE_URL;
      if (engine === 'postgres') {
        const database = await createPostgresDatabase();
        cleanups.push(database.drop);
        env.DATABASE_URL = database.url;
      }

      // A member, made with the CLI before the first start (the embedded database is single-process).
      await runScript(
        'server/src/scripts/create-user.ts',
        ['--id', MEMBER.id, '--password', MEMBER.password, '--name', '耐久 太郎', '--role', '101'],
        env,
      );

      let server = await startServerProcess(env);
      cleanups.push(async () => {
        if (server.child.exitCode === null) server.child.kill('SIGKILL');
      });
      const memberSsid = await loginAs(server.baseUrl, MEMBER);
      const ownerSsid = await loginAs(server.baseUrl, OWNER);
      const desk = await firstConversation(server.baseUrl, memberSsid, 'staff');
      const staffRoom = await firstConversation(server.baseUrl, ownerSsid, 'staff');

      const memberSocket = await openSocket(server, memberSsid, null);
      const ownerSocket = await openSocket(server, ownerSsid, null);
      let acks = 0;
      let killed = false;
      const onAck = () => {
        acks += 1;
        if (acks >= ACKS_BEFORE_KILL && !killed) {
          killed = true;
          server.child.kill('SIGKILL');
        }
      };
      const streams = [
        streamMessages(memberSocket.ws, desk, '会員から', onAck),
        streamMessages(ownerSocket.ws, desk, 'スタッフから', onAck),
        streamMessages(ownerSocket.ws, staffRoom, 'スタッフルームへ', onAck),
      ];
      const code = await server.exited;
      expect(code).toBeNull();
      expect(server.child.signalCode).toBe('SIGKILL');

      const acked = new Map(streams.flatMap((stream) => [...stream.acked]));
      const sent = streams.flatMap((stream) => stream.sent);
      expect(acked.size).toBeGreaterThanOrEqual(ACKS_BEFORE_KILL);
      // Frames were still in flight when the server died.
      expect(sent.length).toBeGreaterThan(acked.size);

      server = await startServerProcess(env);
      const before = await storedByClientId(server, ownerSsid);
      for (const [clientId, id] of acked) expect(before.get(clientId)).toEqual([id]);

      // The clients re-send everything, answered or not, under the same client ids (sessions survive too),
      // one frame at a time as a client replays its outbox.
      const senders = [await openSocket(server, memberSsid, null), await openSocket(server, ownerSsid, null)];
      const answers = new Map<string, number>();
      await Promise.all(
        streams.map(async (stream, index) => {
          const { ws } = senders[index === 0 ? 0 : 1]!;
          const conversationId = index === 2 ? staffRoom : desk;
          for (const clientId of stream.sent) {
            const answered = new Promise<number>((resolve) => {
              const onFrame = (data: WebSocket.RawData) => {
                const frame = JSON.parse(data.toString()) as ServerFrame;
                if (frame.type !== 'message' || !frame.own || frame.client_id !== clientId) return;
                ws.off('message', onFrame);
                resolve(frame.id);
              };
              ws.on('message', onFrame);
            });
            ws.send(
              JSON.stringify({
                type: 'text',
                conversation_id: conversationId,
                message: '再送',
                client_id: clientId,
              }),
            );
            answers.set(clientId, await answered);
          }
        }),
      );
      for (const [clientId, id] of acked) expect(answers.get(clientId)).toBe(id);

      const after = await storedByClientId(server, ownerSsid);
      for (const clientId of sent) expect(after.get(clientId)).toHaveLength(1);
      for (const { ws } of senders) ws.close();

      // And a SIGTERM stops it cleanly.
      server.child.kill('SIGTERM');
      expect(await server.exited).toBe(0);
    },
  );
});
