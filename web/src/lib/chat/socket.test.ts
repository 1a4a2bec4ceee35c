// @vitest-environment jsdom
import 'fake-indexeddb/auto';
import { waitFor } from '@testing-library/react';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startClubServer, type ClubServer } from '@/testing/club-server';
import { actAsBrowserAt, deskTalk, logInAsStaff } from '@/testing/browser-shims';
import { newClientId } from './client-id';
import { getChatStatus, onChatEvent } from './events';
import { getOutbox, RESEND_MS } from './outbox';
import { submitMessage } from './sending';
import { startChatSocket, stopChatSocket } from './socket';

let server: ClubServer;

beforeAll(async () => {
  server = await startClubServer(deskTalk);
  actAsBrowserAt(server.origin);
  logInAsStaff();
  startChatSocket();
  await untilLive();
});
// Every test starts on a live socket, whatever the one before left reconnecting.
beforeEach(() => untilLive());
afterAll(async () => {
  stopChatSocket();
  await server.close();
});

/** The socket is caught up (after a reconnect: 4.5 s after the drop). */
const untilLive = () => waitFor(() => expect(getChatStatus()).toBe('live'), { timeout: 10_000 });
const untilOffline = () => waitFor(() => expect(getChatStatus()).toBe('offline'));

function write(message: string): string {
  const clientId = newClientId();
  submitMessage({
    client_id: clientId,
    conversation_id: deskTalk.id,
    conversation_type: deskTalk.type,
    message,
    image: [],
    reply: null,
    announce: false,
    created: new Date().toISOString(),
  });
  return clientId;
}

const textFrames = (clientId: string) =>
  server.frames.filter((frame) => frame.type === 'text' && frame.client_id === clientId);

describe('the chat socket', () => {
  it('reconnects after the connection drops and catches up from the newest message it saw', async () => {
    const seen: string[] = [];
    const stop = onChatEvent('message', (message) => seen.push(message.message));
    const connections = server.connections();
    const before = server.receive({ message: '最初' });
    await waitFor(() => expect(seen).toEqual(['最初']));

    server.dropSockets();
    await untilOffline();
    server.receive({ message: '切れている間' }); // stored while this client is away
    const session = server.nextFrame('session');
    await untilLive();
    stop();

    expect((await session).last_id).toBe(before.id);
    expect(server.frames.slice(-1)).toEqual([{ type: 'visibility', visible: true }]);
    expect(seen).toEqual(['最初', '切れている間']);
    expect(server.connections()).toBe(connections + 1);
  }, 15_000);

  it('keeps what is written while offline in the outbox and sends it when the socket is back', async () => {
    server.dropSockets();
    await untilOffline();
    const clientId = write('オフラインで書いた');
    expect(getOutbox().map((entry) => [entry.client_id, entry.status])).toEqual([[clientId, 'waiting']]);

    await untilLive();
    await waitFor(() => expect(getOutbox()).toEqual([]));
    expect(textFrames(clientId)).toHaveLength(1);
    expect(server.messages.filter((message) => message.client_id === clientId)).toHaveLength(1);
  }, 15_000);

  it('sends a message once: its echo, even one arriving by the catch-up, clears it from the outbox', async () => {
    const echoed: number[] = [];
    const stop = onChatEvent('message', (message) => echoed.push(message.id));
    server.loseEchoes(true); // stored, but the echo is lost with the connection
    const clientId = write('届いたか分からない');
    await waitFor(() => expect(textFrames(clientId)).toHaveLength(1));
    server.loseEchoes(false);
    server.dropSockets();
    await untilOffline();
    expect(getOutbox().map((entry) => entry.client_id)).toEqual([clientId]);

    await untilLive();
    await waitFor(() => expect(getOutbox()).toEqual([]));
    stop();
    const stored = server.messages.filter((message) => message.client_id === clientId);
    expect(stored).toHaveLength(1);
    expect(echoed).toEqual([stored[0]?.id]);
    expect(textFrames(clientId)).toHaveLength(1);
  }, 15_000);

  it('keeps a message the server could not store for now (its database away) and sends it again by itself', async () => {
    server.refuseTexts(true);
    const clientId = write('データベース停止中');
    await waitFor(() => expect(textFrames(clientId).length).toBeGreaterThanOrEqual(2), {
      timeout: RESEND_MS * 3,
    });
    // Waiting (送信待ち), not failed: the user need not tap it.
    expect(getOutbox().map((entry) => [entry.client_id, entry.status, entry.error])).toEqual([
      [clientId, expect.stringMatching(/^(waiting|sending)$/), null],
    ]);
    server.refuseTexts(false);
    await waitFor(() => expect(getOutbox()).toEqual([]), { timeout: RESEND_MS * 3 });
    expect(server.messages.filter((message) => message.client_id === clientId)).toHaveLength(1);
  }, 15_000);

  it('tells the server when the app goes to the background and comes back, so pushes stop while it shows', async () => {
    const visibility = (state: DocumentVisibilityState) => {
      Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => state });
      document.dispatchEvent(new Event('visibilitychange'));
    };
    const hidden = server.nextFrame('visibility');
    visibility('hidden');
    expect(await hidden).toEqual({ type: 'visibility', visible: false });
    const shown = server.nextFrame('visibility');
    visibility('visible');
    expect(await shown).toEqual({ type: 'visibility', visible: true });
  });
});

describe('the reload frame (product.md §15.4)', () => {
  it('tells every screen to read its talk again, and the socket stays live', async () => {
    let reloads = 0;
    const stop = onChatEvent('reload', () => (reloads += 1));
    const seen: string[] = [];
    const stopMessages = onChatEvent('message', (message) => seen.push(message.message));
    server.push({ type: 'reload' });
    await waitFor(() => expect(reloads).toBe(1));
    // Still live: a message after it arrives as usual.
    server.receive({ message: '再読み込みの後' });
    await waitFor(() => expect(seen).toEqual(['再読み込みの後']));
    stop();
    stopMessages();
    expect(getChatStatus()).toBe('live');
  });
});
