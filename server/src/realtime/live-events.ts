import { SOCKET_CLOSE, type ServerFrame } from '@enishi/contract';
import type { Actor } from '../services/session-service.js';
import type { BadgeCounter } from './badge-counter.js';
import type { RealtimeEvent } from '../bus/events.js';
import { metrics } from '../lib/metrics.js';
import { messageFrame } from './message-frames.js';

/** What a live event needs of the socket it reaches. */
export interface LiveSocket {
  /** Whether the message was sent by the catch-up, or the client said it had it (`last_id`). */
  alreadySent(id: number): boolean;
  /** The talk on screen: its new messages are marked read as they arrive. */
  readonly openConversationId: number | null;
  readonly badges: BadgeCounter;
  send(frame: ServerFrame): void;
  sendJson(json: string): void;
  close(code: number): void;
  markOpenTalkRead(): void;
  /** The user's record changed: read the session again before the next frame. */
  userChanged(): void;
  /** Voice calls: which socket this is, and whether it carries a call (product.md §17.6). */
  readonly socketId: string;
  carryCall(carrying: boolean): void;
}

/** Turns a delivered event into what this socket's user sees (product.md §15). */
export function applyLiveEvent(socket: LiveSocket, actor: Actor, event: RealtimeEvent): void {
  switch (event.event) {
    case 'message.created': {
      const message = event.message;
      if (socket.alreadySent(message.id)) return;
      socket.sendJson(messageFrame(actor, message));
      metrics.messageDelivered(event.committedAt);
      if (message.from === actor.uid) socket.badges.own(actor, message);
      else if (message.conversation_id === socket.openConversationId) socket.markOpenTalkRead();
      else socket.badges.arrival(actor, message);
      return;
    }
    case 'message.deleted':
      socket.send({
        type: 'delete',
        conversation_id: event.conversationId,
        delete_message_id: event.messageId,
      });
      return socket.badges.refresh();
    case 'message.unsent':
      // An old message in its new words: sent whatever the catch-up covered; an unread one is unread no more.
      socket.sendJson(messageFrame(actor, event.message));
      return socket.badges.refresh();
    case 'announcement.added':
      // An old message: sent whatever the catch-up covered, and no badge or read mark moves.
      socket.sendJson(messageFrame(actor, event.message));
      return;
    case 'announcement.removed':
      socket.send({
        type: 'delete',
        conversation_id: event.conversationId,
        delete_announce_id: event.messageId,
      });
      return;
    case 'conversation.read':
      if (event.reader === actor.uid) return;
      socket.send({
        type: 'read',
        conversation_id: event.conversationId,
        reader: event.reader,
        last_read_id: event.lastReadId,
        ...(event.marks && { marks: event.marks }),
      });
      return;
    case 'notifications.changed':
    case 'news.published':
      return socket.badges.refresh();
    case 'user.changed':
      return socket.userChanged();
    case 'call.signal':
      if (event.toSocket !== undefined && event.toSocket !== socket.socketId) return;
      if (event.exceptSocket === socket.socketId) return;
      socket.send(event.frame);
      if (event.frame.type === 'cancelCall' && event.toSocket !== undefined) socket.carryCall(false);
      return;
    case 'setting.changed':
      return socket.send({
        type: 'setting',
        id: event.id,
        status: event.status,
        man: event.man,
        woman: event.woman,
      });
    case 'desk.changed':
      return socket.send({ type: 'desk', ...event.state });
    case 'presence.changed':
      return socket.send({ type: 'updateConnection', uid: event.uid, isOnline: event.isOnline });
    case 'session.ended':
      if (
        event.sessionId === null
          ? event.keepSessionId !== actor.sessionId
          : event.sessionId === actor.sessionId
      )
        socket.close(SOCKET_CLOSE.sessionEnded);
      return;
  }
}
