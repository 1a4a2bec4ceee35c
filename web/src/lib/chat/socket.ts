import {
  SOCKET_CLOSE,
  ja,
  socketReconnectDelay,
  type ClientFrame,
  type ConversationType,
} from '@enishi/contract';
import { subscribeLocalState } from '../local-state';
import { currentPushSubscription } from '../pwa';
import { endSession, getSession } from '../session';
import { dismissAbout, toast } from '../toast';
import { startBadgePoll, stopBadgePoll } from './badge-poll';
import { emitChatEvent, getChatStatus, setChatStatus, type ChatStatus } from './events';
import { clearHistory } from './history';
import { followSession, lastSeenId, persistLastSeen } from './last-seen';
import { liveSocket, sendFrame, setLiveSocket } from './live-socket';
import { clearOutbox, loadOutbox, markSendingAsWaiting } from './outbox';
import { onServerFrame, type FrameHooks } from './server-frames';
import { flushOutbox } from './sending';
import { checkAddress, clearWrongAddress } from './wrong-address';

/*
 * The app's one chat socket (product.md §15): open while a session exists, closed on logout. It
 * catches up from the newest message id this device has seen, reconnects 4.5 s (± 1 s) after a close, sends the
 * outbox when the connection is (back) up, keeps the badge counters current (pushed by the server, polled
 * while the socket is down) and hands messages, deletions and read marks to whichever screen listens. What
 * the server says is read in server-frames.ts, messages go out through sending.ts, and the socket of the
 * moment is live-socket.ts's.
 */

export type OpenTalk = { id: number; type: ConversationType | null };

/** How long the session frame may wait for the push endpoint (the server allows 5 s for the frame). */
const ENDPOINT_WAIT_MS = 1000;
/** A connection that has not caught up by then is stuck (a proxy holding it, say): it is dropped and made again. */
const READY_TIMEOUT_MS = 15_000;

let sessionToken: string | null = null;
let reconnectTimer: ReturnType<typeof setTimeout> | undefined;
let readyTimer: ReturnType<typeof setTimeout> | undefined;
let openTalk: OpenTalk | null = null;
/**
 * The talk the server was last told is on screen (by the session frame or an `open` frame); undefined when
 * this connection has told nothing yet. Opening a talk marks it read once; the server itself marks the
 * messages that arrive while it stays open (product.md §15).
 */
let toldTalkId: number | null | undefined;
/** The socket whose session frame has gone out: only then may other frames follow. */
let sessionSentOn: WebSocket | null = null;
/** The `last_id` of the last session frame: the catch-up brings every message after it. */
let caughtUpFrom: number | null = null;
/** Set after an alert that the socket failed; cleared once a connection works again (one alert per outage). */
let failureShown = false;
let started = false;
/** The session being logged out: the socket never reconnects with it, even while it is still stored. */
let refusedToken: string | null = null;

function setStatus(next: ChatStatus): void {
  if (!setChatStatus(next)) return;
  if (next === 'live') stopBadgePoll();
  else startBadgePoll();
}

// --- connection ---------------------------------------------------------------------------------------

function socketUrl(): string {
  return `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/ws/chat`;
}

/** Once per outage: at a wrong address the app names the right one (wrong-address.ts), else the toast. */
function alertFailure(): void {
  if (failureShown) return;
  failureShown = true;
  void checkAddress().then((elsewhere) => {
    if (!elsewhere && failureShown) toast(ja.talk.socketFailed);
  });
}

function connect(): void {
  clearTimeout(reconnectTimer);
  reconnectTimer = undefined;
  const session = getSession();
  if (!session || liveSocket()) return;
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
  setLiveSocket(ws);
  toldTalkId = undefined;
  let opened = false;
  setStatus('connecting');
  ws.onopen = () => {
    opened = true;
    void sendSessionFrame(ws, session.session);
    clearTimeout(readyTimer);
    readyTimer = setTimeout(() => {
      if (ws === liveSocket() && getChatStatus() !== 'live') ws.close();
    }, READY_TIMEOUT_MS);
  };
  ws.onmessage = (event) => {
    if (ws === liveSocket() && typeof event.data === 'string') onServerFrame(event.data, frameHooks);
  };
  ws.onclose = (event) => {
    if (ws !== liveSocket()) return;
    setLiveSocket(null);
    onClosed(event.code, opened);
  };
}

async function sendSessionFrame(ws: WebSocket, token: string): Promise<void> {
  const endpoint = await Promise.race([
    currentPushSubscription().then((subscription) => subscription?.endpoint ?? null),
    new Promise<null>((resolve) => setTimeout(() => resolve(null), ENDPOINT_WAIT_MS)),
  ]);
  if (ws !== liveSocket() || ws.readyState !== WebSocket.OPEN) return;
  const talk = visibleTalk();
  toldTalkId = talk?.id ?? null;
  caughtUpFrom = lastSeenId();
  ws.send(
    JSON.stringify({
      type: 'session',
      session: token,
      endpoint,
      conversation_id: talk?.id ?? null,
      conversation_type: talk?.type ?? null,
      last_id: caughtUpFrom,
    }),
  );
  sessionSentOn = ws;
  tellVisibility();
}

/** The server sends no push for what a socket in the foreground shows (product.md §16). */
function tellVisibility(): void {
  const ws = liveSocket();
  if (!ws || ws !== sessionSentOn || ws.readyState !== WebSocket.OPEN) return;
  const frame: ClientFrame = { type: 'visibility', visible: isVisible() };
  ws.send(JSON.stringify(frame));
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
  reconnectTimer = setTimeout(connect, socketReconnectDelay());
}

function disconnect(): void {
  clearTimeout(readyTimer);
  clearTimeout(reconnectTimer);
  reconnectTimer = undefined;
  const ws = liveSocket();
  setLiveSocket(null);
  if (ws) {
    ws.onclose = null;
    ws.close(1000);
  }
  markSendingAsWaiting();
  setStatus('offline');
}

/** The connection has caught up: it is live, and what waited goes out. */
function onReady(): void {
  clearTimeout(readyTimer);
  failureShown = false;
  clearWrongAddress();
  setStatus('live');
  tellOpenTalk();
  flushOutbox();
  emitChatEvent('live', { caughtUp: caughtUpFrom !== null });
}

const frameHooks: FrameHooks = { openTalkId: () => openTalk?.id, ready: onReady };

// --- the talk on screen ---------------------------------------------------------------------------------

const isVisible = () => typeof document === 'undefined' || document.visibilityState === 'visible';

/** The talk the user is looking at: a hidden app has none, so messages arriving meanwhile stay unread. */
const visibleTalk = (): OpenTalk | null => (isVisible() ? openTalk : null);

/** Tell the server which talk is on screen, unless it knows already; a socket not yet live tells it on `ready`. */
function tellOpenTalk(): void {
  const id = visibleTalk()?.id ?? null;
  if (id === toldTalkId || getChatStatus() !== 'live') return;
  const talk = visibleTalk();
  if (sendFrame({ type: 'open', conversation_id: id, conversation_type: talk?.type ?? null }))
    toldTalkId = id;
}

/** The talk screen tells which talk is shown (marks it read), and null when it is left. */
export function setOpenTalk(talk: OpenTalk | null): void {
  if (openTalk?.id === talk?.id && openTalk?.type === talk?.type) return;
  openTalk = talk;
  if (talk) dismissAbout(talk.id);
  tellOpenTalk();
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
    stopBadgePoll();
    if (!token) {
      clearOutbox();
      void clearHistory();
    }
  }
  sessionToken = token;
  followSession(token);
  failureShown = false;
  if (!session) return;
  void loadOutbox(session.uid).then(() => {
    if (getChatStatus() === 'live') flushOutbox();
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
    if (!liveSocket() && getSession()) connect();
  });
  // A phone that loses its network may keep a half-dead socket for minutes: stop trusting it at once, so
  // what is written now waits in the outbox (送信待ち) and goes out when the network returns.
  window.addEventListener('offline', () => {
    if (liveSocket()) disconnect();
  });
  document.addEventListener('visibilitychange', () => {
    // A hidden app has no talk on screen: what arrives meanwhile stays unread until it is shown again.
    tellOpenTalk();
    tellVisibility();
    // A phone that slept may have a dead socket without a close event yet; a live one is left alone.
    if (isVisible() && !liveSocket() && getSession() && !reconnectTimer) connect();
  });
  window.addEventListener('pagehide', persistLastSeen);
  onSessionChange();
}
