import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ja, jaMember, type ConversationRow, type Message, type MessagesReply } from '@enishi/contract';
import { WebSocketServer, type WebSocket } from 'ws';
import { testMessage } from './chat';

/*
 * A small stand-in for the club's server in web tests: a real HTTP server on 127.0.0.1 that answers the
 * talk's calls (get_conversation, messages, updateNotifications) and a real WebSocket server on /ws/chat
 * that speaks the chat protocol (product.md §15): the session frame, catch-up after `last_id`, `ready`,
 * text frames stored once per client_id and echoed, deletions, 送信取消 (`unsend`) and `open`. It keeps one
 * talk, written by the logged-in user and by `uid` 7, and records every frame a client sends.
 */

type Frame = { type: string; [key: string]: unknown };
type Waiter = { accepts: (frame: Frame) => boolean; resolve: (frame: Frame) => void };

export type ClubServer = {
  /** `http://127.0.0.1:<port>`: where the app under test lives. */
  origin: string;
  /** The talk's messages, oldest first, as the server stores them. */
  messages: Message[];
  /** Every frame clients sent, oldest first. */
  frames: Frame[];
  /** How many socket connections were made. */
  connections: () => number;
  /** How many times the talk's newest page (/api/messages) was read. */
  pageReads: () => number;
  /** The next frame of `type` a client sends (one already received is not waited for). */
  nextFrame: (type: string) => Promise<Frame>;
  /** A message from the other side, stored and sent to every live socket. */
  receive: (patch: Partial<Message>) => Message;
  /** Frames straight to every live socket. */
  push: (frame: Frame) => void;
  /** While on, text frames are stored but not echoed (as when the connection is lost just after). */
  loseEchoes: (on: boolean) => void;
  /**
   * While on, text frames are stored not at all and answered with the error a server gives while its
   * database is away (`retry`, decision 020).
   */
  refuseTexts: (on: boolean) => void;
  /** Closes every socket as a lost network would (the client reconnects). */
  dropSockets: () => void;
  /**
   * From now on, the next /api/messages is read at once but answered only at `release()`, as a slow page is:
   * `requested` settles when it has been read.
   */
  holdNextPage: () => { requested: Promise<void>; release: () => void };
  close: () => Promise<void>;
};

/** What the stand-in keeps: the talk and its messages, the frames, who waits for which, the live sockets, its modes. */
type Club = {
  conversation: ConversationRow;
  stored: Message[];
  frames: Frame[];
  waiters: Waiter[];
  live: Set<WebSocket>;
  /** Ids are never given twice, as a database sequence: not even the id of a message deleted since. */
  lastId: number;
  echoesLost: boolean;
  refusing: boolean;
};

const send = (ws: WebSocket, frame: object) => ws.send(JSON.stringify(frame));
const toAll = (club: Club, frame: object) => club.live.forEach((ws) => send(ws, frame));

function store(club: Club, patch: Partial<Message>): Message {
  club.lastId += 1;
  const message = baseMessage(club.lastId, club.conversation, patch);
  club.stored.push(message);
  return message;
}

/** A frame from a client: recorded, handed to whoever waits for it, and answered as the chat protocol does. */
function onFrame(club: Club, ws: WebSocket, frame: Frame): void {
  const { stored, waiters } = club;
  club.frames.push(frame);
  for (const waiter of waiters.filter((candidate) => candidate.accepts(frame))) {
    waiters.splice(waiters.indexOf(waiter), 1);
    waiter.resolve(frame);
  }
  if (frame.type === 'session') {
    const after = typeof frame.last_id === 'number' ? frame.last_id : null;
    if (after !== null)
      stored.filter((m) => m.id > after).forEach((m) => send(ws, { type: 'message', ...m }));
    club.live.add(ws);
    send(ws, { type: 'ready', last_id: stored.at(-1)?.id ?? 0 });
  } else if (frame.type === 'text' && club.refusing) {
    send(ws, { type: 'error', error: ja.errors.unavailable, client_id: frame.client_id, retry: true });
  } else if (frame.type === 'text') {
    const same = stored.find((message) => message.own && message.client_id === frame.client_id);
    // A client_id already stored is answered with the stored message, to this socket only.
    if (same) return send(ws, { type: 'message', ...same });
    const message = store(club, {
      own: true,
      client_id: String(frame.client_id),
      message: String(frame.message),
    });
    if (!club.echoesLost) toAll(club, { type: 'message', ...message });
  } else if (frame.type === 'delete' && typeof frame.delete_message_id === 'number') {
    stored.splice(
      stored.findIndex((message) => message.id === frame.delete_message_id),
      1,
    );
    toAll(club, {
      type: 'delete',
      conversation_id: club.conversation.id,
      delete_message_id: frame.delete_message_id,
    });
  } else if (frame.type === 'unsend') {
    // 送信取消 (product.md §15.4): the message again, same id, in its new words, to every socket.
    const at = stored.findIndex((message) => message.id === frame.message_id && message.own);
    if (at < 0) return send(ws, { type: 'error', error: ja.errors.notFound });
    const unsent = { ...stored[at]!, message: jaMember.unsend.unsent, image: [], unsent: true };
    stored[at] = unsent;
    toAll(club, { type: 'message', ...unsent });
  }
}

export async function startClubServer(
  conversation: ConversationRow,
  messages: Message[] = [],
): Promise<ClubServer> {
  const stored = [...messages];
  const club: Club = {
    conversation,
    stored,
    frames: [],
    waiters: [],
    live: new Set<WebSocket>(),
    lastId: stored.reduce((max, message) => Math.max(max, message.id), 0),
    echoesLost: false,
    refusing: false,
  };
  let connections = 0;
  let pageReads = 0;
  let hold: { read: () => void; answered: Promise<void> } | null = null;

  const http = createServer((request, response) => {
    if (request.url === '/api/messages') pageReads += 1;
    const held = request.url === '/api/messages' ? hold : null;
    if (held) hold = null;
    void answer(request, response, conversation, stored, held);
  });
  const sockets = new WebSocketServer({ server: http, path: '/ws/chat' });
  sockets.on('connection', (ws) => {
    connections += 1;
    ws.on('message', (data) => onFrame(club, ws, JSON.parse(String(data)) as Frame));
    ws.on('close', () => club.live.delete(ws));
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const { port } = http.address() as AddressInfo;

  return {
    origin: `http://127.0.0.1:${port}`,
    messages: stored,
    frames: club.frames,
    connections: () => connections,
    pageReads: () => pageReads,
    nextFrame: (type) =>
      new Promise((resolve) => club.waiters.push({ accepts: (frame) => frame.type === type, resolve })),
    receive: (patch) => {
      const message = store(club, { own: false, ...patch });
      toAll(club, { type: 'message', ...message });
      return message;
    },
    push: (frame) => toAll(club, frame),
    loseEchoes: (on) => {
      club.echoesLost = on;
    },
    refuseTexts: (on) => {
      club.refusing = on;
    },
    holdNextPage: () => {
      let read = () => {};
      let release = () => {};
      const requested = new Promise<void>((resolve) => (read = resolve));
      hold = { read, answered: new Promise<void>((resolve) => (release = resolve)) };
      return { requested, release };
    },
    dropSockets: () => {
      for (const ws of sockets.clients) ws.terminate();
      club.live.clear();
    },
    close: async () => {
      for (const ws of sockets.clients) ws.terminate();
      await new Promise((resolve) => sockets.close(resolve));
      http.closeAllConnections();
      await new Promise((resolve) => http.close(resolve));
    },
  };
}

function baseMessage(id: number, conversation: ConversationRow, patch: Partial<Message>): Message {
  return testMessage(id, {
    conversation_id: conversation.id,
    conversation_type: conversation.type,
    message: '',
    date: new Date().toISOString(),
    ...patch,
  });
}

async function answer(
  request: IncomingMessage,
  response: ServerResponse,
  conversation: ConversationRow,
  stored: Message[],
  held: { read: () => void; answered: Promise<void> } | null,
): Promise<void> {
  const reply = (body: unknown, status = 200) => {
    response.writeHead(status, { 'Content-Type': 'application/json' });
    response.end(JSON.stringify(body));
  };
  for await (const _chunk of request); // the body is not needed: one talk, one page
  switch (request.url) {
    case '/api/get_conversation':
      return reply({ rows: [conversation] });
    case '/api/messages': {
      const page: MessagesReply = { rows: [{ date: 'today', messages: [...stored] }], isEnd: true };
      held?.read();
      await held?.answered;
      return reply(page);
    }
    case '/api/updateNotifications':
      return reply({ rows: [{ news: 0, fromStaff: 0, setting: 0, fromWomen: 0, fromMen: 0 }] });
    default:
      return reply({ error: 'not found' }, 404);
  }
}
