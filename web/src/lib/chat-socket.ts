import {
  LIMITS,
  SOCKET_CLOSE,
  ServerFrame,
  isStaffRole,
  ja,
  type ClientFrame,
  type ConversationType,
  type DeleteEvent,
  type MessageEvent,
  type ReadEvent,
} from '@enishi/contract';
import { useEffect, useRef, useSyncExternalStore } from 'react';
import { api } from './api-client';
import { getLocalState, subscribeLocalState, updateLocalState } from './local-state';
import { setCounters } from './notifications';
import {
  addEntry,
  clearOutbox,
  entriesToSend,
  getOutbox,
  loadOutbox,
  markSendingAsWaiting,
  removeEntry,
  toTextFrame,
  updateEntry,
  type OutboxEntry,
} from './outbox';
import { currentPushSubscription } from './pwa';
import { endSession, getSession } from './session';
import { toast } from './toast';

/*
 * The app's one chat socket (API.md "Chat socket"): open while a session exists, closed on logout. It
 * catches up from the newest message id this device has seen, reconnects 4.5 s after a close, sends the
 * outbox when the connection is (back) up, keeps the badge counters current (pushed by the server, polled
 * while the socket is down) and hands messages, deletions and read marks to whichever screen listens.
 */

/** offline: no connection; connecting: opened, catching up; live: caught up, frames flow both ways. */
export type ChatStatus = 'offline' | 'connecting' | 'live';

export type ChatEvents = {
  message: MessageEvent;
  delete: DeleteEvent;
  read: ReadEvent;
  /** The connection is (again) up to date: screens may have missed nothing, but may refresh lists. */
  live: null;
};

export type OpenTalk = { id: number; type: ConversationType | null };

/** How long the session frame may wait for the push endpoint (the server allows 5 s for the frame). */
const ENDPOINT_WAIT_MS = 1000;
/** A connection that has not caught up by then is stuck (a proxy holding it, say): it is dropped and made again. */
const READY_TIMEOUT_MS = 15_000;
/** The newest seen id is written to storage at most this often. */
const PERSIST_LAST_ID_MS = 1000;

let socket: WebSocket | null = null;
let status: ChatStatus = 'offline';
let sessionToken: string | null = null;
let reconnectTimer: ReturnType<typeof setTimeout> | undefined;
let pollTimer: ReturnType<typeof setInterval> | undefined;
let persistTimer: ReturnType<typeof setTimeout> | undefined;
let readyTimer: ReturnType<typeof setTimeout> | undefined;
let lastId: number | null = null;
let openTalk: OpenTalk | null = null;
/** Set after an alert that the socket failed; cleared once a connection works again (one alert per outage). */
let failureShown = false;
let started = false;
/** The session being logged out: the socket never reconnects with it, even while it is still stored. */
let refusedToken: string | null = null;

const statusListeners = new Set<() => void>();
const eventListeners: { [K in keyof ChatEvents]: Set<(event: ChatEvents[K]) => void> } = {
  message: new Set(),
  delete: new Set(),
  read: new Set(),
  live: new Set(),
};

function emit<K extends keyof ChatEvents>(type: K, event: ChatEvents[K]): void {
  eventListeners[type].forEach((listener) => listener(event));
}

function setStatus(next: ChatStatus): void {
  if (status === next) return;
  status = next;
  statusListeners.forEach((listener) => listener());
  if (next === 'live') stopPolling();
  else startPolling();
}

export const getChatStatus = (): ChatStatus => status;

export function useChatStatus(): ChatStatus {
  return useSyncExternalStore(
    (listener) => {
      statusListeners.add(listener);
      return () => statusListeners.delete(listener);
    },
    () => status,
    () => 'offline',
  );
}

export function onChatEvent<K extends keyof ChatEvents>(
  type: K,
  listener: (event: ChatEvents[K]) => void,
): () => void {
  eventListeners[type].add(listener);
  return () => eventListeners[type].delete(listener);
}

/** Listen to one kind of socket event while the component is mounted (the latest callback is used). */
export function useChatEvent<K extends keyof ChatEvents>(
  type: K,
  listener: (event: ChatEvents[K]) => void,
): void {
  const latest = useRef(listener);
  useEffect(() => {
    latest.current = listener;
  });
  useEffect(() => onChatEvent(type, (event) => latest.current(event)), [type]);
}

// --- connection ---------------------------------------------------------------------------------------

function socketUrl(): string {
  return `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/ws/chat`;
}

function alertFailure(): void {
  if (failureShown) return;
  failureShown = true;
  toast(ja.talk.socketFailed);
}

function connect(): void {
  clearTimeout(reconnectTimer);
  reconnectTimer = undefined;
  const session = getSession();
  if (!session || socket) return;
  if (!navigator.onLine) {
    // Wait for the 'online' event rather than failing every 4.5 s.
    setStatus('offline');
    return;
  }
  let ws: WebSocket;
  try {
    ws = new WebSocket(socketUrl());
  } catch (error) {
    console.warn('chat socket could not be created', error);
    alertFailure();
    scheduleReconnect();
    return;
  }
  socket = ws;
  let opened = false;
  setStatus('connecting');
  ws.onopen = () => {
    opened = true;
    void sendSessionFrame(ws, session.session);
    clearTimeout(readyTimer);
    readyTimer = setTimeout(() => {
      if (ws === socket && status !== 'live') ws.close();
    }, READY_TIMEOUT_MS);
  };
  ws.onmessage = (event) => {
    if (ws === socket && typeof event.data === 'string') onFrame(event.data);
  };
  ws.onclose = (event) => {
    if (ws !== socket) return;
    socket = null;
    onClosed(event.code, opened);
  };
}

async function sendSessionFrame(ws: WebSocket, token: string): Promise<void> {
  const endpoint = await Promise.race([
    currentPushSubscription().then((subscription) => subscription?.endpoint ?? null),
    new Promise<null>((resolve) => setTimeout(() => resolve(null), ENDPOINT_WAIT_MS)),
  ]);
  if (ws !== socket || ws.readyState !== WebSocket.OPEN) return;
  const talk = visibleTalk();
  ws.send(
    JSON.stringify({
      type: 'session',
      session: token,
      endpoint,
      conversation_id: talk?.id ?? null,
      conversation_type: talk?.type ?? null,
      last_id: lastId,
    }),
  );
}

function onClosed(code: number, opened: boolean): void {
  clearTimeout(readyTimer);
  setStatus('offline');
  markSendingAsWaiting();
  if (code === SOCKET_CLOSE.unauthenticated || code === SOCKET_CLOSE.sessionEnded) {
    // The server no longer accepts the session: leave for /enter like a 401 does.
    if (getSession()?.session === sessionToken) endSession();
    return;
  }
  if (!opened) alertFailure();
  scheduleReconnect();
}

function scheduleReconnect(): void {
  clearTimeout(reconnectTimer);
  if (!getSession()) return;
  reconnectTimer = setTimeout(connect, LIMITS.socketReconnectMs);
}

function disconnect(): void {
  clearTimeout(readyTimer);
  clearTimeout(reconnectTimer);
  reconnectTimer = undefined;
  const ws = socket;
  socket = null;
  if (ws) {
    ws.onclose = null;
    ws.close(1000);
  }
  markSendingAsWaiting();
  setStatus('offline');
}

// --- frames from the server -----------------------------------------------------------------------------

function onFrame(data: string): void {
  let json: unknown;
  try {
    json = JSON.parse(data);
  } catch {
    return;
  }
  const parsed = ServerFrame.safeParse(json);
  // Frames this version does not know are ignored, as API.md asks of clients.
  if (!parsed.success) return;
  const frame = parsed.data;
  switch (frame.type) {
    case 'message':
      noteSeen(frame.id);
      if (frame.own && frame.client_id) removeEntry(frame.client_id);
      emit('message', frame);
      if (status === 'live' && !frame.own && frame.conversation_id !== openTalk?.id) {
        // Another talk: its badge rises (the counters come from the server) and a toast tells who wrote.
        toast(
          frame.conversation_type === 'st' || !isStaffRole(frame.role)
            ? ja.talk.fromMember.replace('{name}', frame.name)
            : ja.talk.fromStaff,
        );
      }
      return;
    case 'delete':
      emit('delete', frame);
      return;
    case 'read':
      emit('read', frame);
      return;
    case 'notifications': {
      const { type: _type, ...counters } = frame;
      setCounters(counters);
      return;
    }
    case 'ready':
      clearTimeout(readyTimer);
      noteSeen(frame.last_id);
      failureShown = false;
      setStatus('live');
      flushOutbox();
      emit('live', null);
      return;
    case 'error':
      toast(frame.error);
      if (frame.client_id) updateEntry(frame.client_id, { status: 'failed', error: frame.error });
      return;
  }
}

function noteSeen(id: number): void {
  if (lastId !== null && id <= lastId) return;
  lastId = id;
  if (persistTimer) return;
  persistTimer = setTimeout(persistLastId, PERSIST_LAST_ID_MS);
}

function persistLastId(): void {
  clearTimeout(persistTimer);
  persistTimer = undefined;
  const id = lastId;
  updateLocalState((state) =>
    state.session && state.session.session === sessionToken && state.lastMessageId !== id
      ? { ...state, lastMessageId: id }
      : state,
  );
}

// --- frames to the server -------------------------------------------------------------------------------

/** Send a frame now; false when the socket is not live (nothing is queued: only messages wait, in the outbox). */
export function sendFrame(frame: ClientFrame): boolean {
  if (status !== 'live' || !socket || socket.readyState !== WebSocket.OPEN) return false;
  socket.send(JSON.stringify(frame));
  return true;
}

function sendEntry(entry: OutboxEntry): void {
  if (sendFrame(toTextFrame(entry))) {
    updateEntry(entry.client_id, { status: 'sending', attempts: entry.attempts + 1, error: null });
  }
}

function flushOutbox(): void {
  const uid = getSession()?.uid;
  const { send, giveUp } = entriesToSend(getOutbox().filter((entry) => entry.uid === uid));
  for (const entry of giveUp) updateEntry(entry.client_id, { status: 'failed', error: ja.talk.failed });
  for (const entry of send) sendEntry(entry);
}

/** A new message: shown at once from the outbox, sent now if the socket is live, else when it is. */
export function submitMessage(entry: Omit<OutboxEntry, 'status' | 'error' | 'attempts' | 'uid'>): void {
  const session = getSession();
  if (!session) return;
  const full: OutboxEntry = { ...entry, uid: session.uid, status: 'waiting', error: null, attempts: 0 };
  addEntry(full);
  if (status === 'live') sendEntry(full);
}

/** Send a failed message again (the user asked to). */
export function retryMessage(clientId: string): void {
  const entry = getOutbox().find((candidate) => candidate.client_id === clientId);
  if (!entry) return;
  const waiting = { ...entry, status: 'waiting' as const, error: null, attempts: 0 };
  updateEntry(clientId, waiting);
  if (status === 'live') sendEntry(waiting);
}

/** Give up a message that has not been stored (it may still be stored if its frame is already on the wire). */
export function discardMessage(clientId: string): void {
  removeEntry(clientId);
}

// --- the talk on screen ---------------------------------------------------------------------------------

const isVisible = () => typeof document === 'undefined' || document.visibilityState === 'visible';

/** The talk the user is looking at: a hidden app has none, so messages arriving meanwhile stay unread. */
const visibleTalk = (): OpenTalk | null => (isVisible() ? openTalk : null);

function sendOpen(): void {
  const talk = visibleTalk();
  sendFrame({ type: 'open', conversation_id: talk?.id ?? null, conversation_type: talk?.type ?? null });
}

/** The talk screen tells which talk is shown (marks it read), and null when it is left. */
export function setOpenTalk(talk: OpenTalk | null): void {
  if (openTalk?.id === talk?.id && openTalk?.type === talk?.type) return;
  openTalk = talk;
  sendOpen();
}

let seenTimer: ReturnType<typeof setTimeout> | undefined;

/** New messages arrived in the talk on screen: it has been read (a burst makes one frame). */
export function markOpenTalkSeen(): void {
  if (!openTalk || !isVisible()) return;
  clearTimeout(seenTimer);
  seenTimer = setTimeout(sendOpen, 300);
}

// --- badge counters while the socket is down --------------------------------------------------------------

function startPolling(): void {
  if (pollTimer || !getSession()) return;
  pollTimer = setInterval(() => {
    const session = getSession();
    if (!session) return stopPolling();
    if (status === 'live' || !navigator.onLine) return;
    api('updateNotifications', { uid: session.uid })
      .then((reply) => {
        const counters = reply.rows[0];
        if (counters) setCounters(counters);
      })
      .catch(() => undefined);
  }, LIMITS.notificationPollMs);
}

function stopPolling(): void {
  clearInterval(pollTimer);
  pollTimer = undefined;
}

// --- life cycle -------------------------------------------------------------------------------------------

/** Follow the session: a socket while logged in, none after logout (and nothing of the user left behind). */
function onSessionChange(): void {
  const stored = getSession();
  const session = stored && stored.session !== refusedToken ? stored : null;
  const token = session?.session ?? null;
  if (token === sessionToken) return;
  if (sessionToken !== null) {
    disconnect();
    stopPolling();
    clearTimeout(persistTimer);
    persistTimer = undefined;
    if (!token) clearOutbox();
  }
  sessionToken = token;
  failureShown = false;
  if (!session) {
    lastId = null;
    return;
  }
  lastId = getLocalState().lastMessageId;
  void loadOutbox(session.uid).then(() => {
    if (status === 'live') flushOutbox();
  });
  connect();
}

/** Logout: close the socket first, so that the server ending the session does not look like an expiry. */
export function stopChatSocket(): void {
  refusedToken = getSession()?.session ?? null;
  onSessionChange();
}

/** Called once at start-up (main.tsx). */
export function startChatSocket(): void {
  if (started || typeof window === 'undefined') return;
  started = true;
  subscribeLocalState(onSessionChange);
  window.addEventListener('online', () => {
    if (!socket && getSession()) connect();
  });
  // A phone that loses its network may keep a half-dead socket for minutes: stop trusting it at once, so
  // what is written now waits in the outbox (送信待ち) and goes out when the network returns.
  window.addEventListener('offline', () => {
    if (socket) disconnect();
  });
  document.addEventListener('visibilitychange', () => {
    if (openTalk) sendOpen();
    // A phone that slept may have a dead socket without a close event yet; a live one is left alone.
    if (isVisible() && !socket && getSession() && !reconnectTimer) connect();
  });
  window.addEventListener('pagehide', () => {
    if (persistTimer) persistLastId();
  });
  onSessionChange();
}
