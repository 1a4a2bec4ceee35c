import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ja, type ConversationRow, type Message, type MessagesReply } from '@enishi/contract';
import { WebSocketServer, type WebSocket } from 'ws';
import { testMessage } from './chat';

/*
 * A small stand-in for the club's server in web tests: a real HTTP server on 127.0.0.1 that answers the
 * talk's calls (get_conversation, messages, updateNotifications) and a real WebSocket server on /ws/chat
 * that speaks the chat protocol (product.md §15): the session frame, catch-up after `last_id`, `ready`,
 * text frames stored once per client_id and echoed, deletions and `open`. It keeps one talk, written by the
 * logged-in user and by `uid` 7, and records every frame a client sends.
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

export async function startClubServer(
  conversation: ConversationRow,
  messages: Message[] = [],
): Promise<ClubServer> {
  const stored = [...messages];
  const frames: Frame[] = [];
  const waiters: Waiter[] = [];
  const live = new Set<WebSocket>();
  let connections = 0;
  let echoesLost = false;
  let refusing = false;
  let hold: { read: () => void; answered: Promise<void> } | null = null;

  const send = (ws: WebSocket, frame: object) => ws.send(JSON.stringify(frame));
  const toAll = (frame: object) => live.forEach((ws) => send(ws, frame));
  // Ids are never given twice, as a database sequence: not even the id of a message deleted since.
  let lastId = stored.reduce((max, message) => Math.max(max, message.id), 0);
  const nextId = () => ++lastId;
  function store(patch: Partial<Message>): Message {
    const message = baseMessage(nextId(), conversation, patch);
    stored.push(message);
    return message;
  }

  function onFrame(ws: WebSocket, frame: Frame): void {
    frames.push(frame);
    for (const waiter of waiters.filter((candidate) => candidate.accepts(frame))) {
      waiters.splice(waiters.indexOf(waiter), 1);
      waiter.resolve(frame);
    }
    if (frame.type === 'session') {
      const after = typeof frame.last_id === 'number' ? frame.last_id : null;
      if (after !== null)
        stored.filter((m) => m.id > after).forEach((m) => send(ws, { type: 'message', ...m }));
      live.add(ws);
      send(ws, { type: 'ready', last_id: stored.at(-1)?.id ?? 0 });
    } else if (frame.type === 'text' && refusing) {
      send(ws, { type: 'error', error: ja.errors.unavailable, client_id: frame.client_id, retry: true });
    } else if (frame.type === 'text') {
      const same = stored.find((message) => message.own && message.client_id === frame.client_id);
      // A client_id already stored is answered with the stored message, to this socket only.
      if (same) return send(ws, { type: 'message', ...same });
      const message = store({
        own: true,
        client_id: String(frame.client_id),
        message: String(frame.message),
      });
      if (!echoesLost) toAll({ type: 'message', ...message });
    } else if (frame.type === 'delete' && typeof frame.delete_message_id === 'number') {
      stored.splice(
        stored.findIndex((message) => message.id === frame.delete_message_id),
        1,
      );
      toAll({ type: 'delete', conversation_id: conversation.id, delete_message_id: frame.delete_message_id });
    }
  }

  const http = createServer((request, response) => {
    const held = request.url === '/api/messages' ? hold : null;
    if (held) hold = null;
    void answer(request, response, conversation, stored, held);
  });
  const sockets = new WebSocketServer({ server: http, path: '/ws/chat' });
  sockets.on('connection', (ws) => {
    connections += 1;
    ws.on('message', (data) => onFrame(ws, JSON.parse(String(data)) as Frame));
    ws.on('close', () => live.delete(ws));
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const { port } = http.address() as AddressInfo;

  return {
    origin: `http://127.0.0.1:${port}`,
    messages: stored,
    frames,
    connections: () => connections,
    nextFrame: (type) =>
      new Promise((resolve) => waiters.push({ accepts: (frame) => frame.type === type, resolve })),
    receive: (patch) => {
      const message = store({ own: false, ...patch });
      toAll({ type: 'message', ...message });
      return message;
    },
    push: toAll,
    loseEchoes: (on) => {
      echoesLost = on;
    },
    refuseTexts: (on) => {
      refusing = on;
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
      live.clear();
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
