import { randomUUID } from 'node:crypto';
import { ConversationsReply, type ConversationType } from '@enishi/contract';
import { and, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { expect } from 'vitest';
import type { Database } from '../db/client.js';
import { conversations, type ConversationRecord } from '../db/schema.js';
import type { Actor } from '../services/session-service.js';
import type { MessageFact } from '../presenters/message-fact.js';
import type { NewMessage } from '../repositories/message-batch-repository.js';
import { call } from './app.js';

/** The actor behind a session, as the services see the caller. */
export async function actorOf(app: FastifyInstance, ssid: string): Promise<Actor> {
  const actor = await app.services.sessions.resolve(ssid);
  if (!actor) throw new Error('no such session');
  return actor;
}

/** Stores a message through the service, as a chat frame would, and returns what readers see of it. */
export async function postMessage(
  app: FastifyInstance,
  ssid: string,
  conversationId: number,
  message: string,
  extra: { image?: string[]; reply?: number | null; announce?: boolean; stamp_id?: number } = {},
): Promise<MessageFact> {
  const result = await app.services.messages.send(await actorOf(app, ssid), {
    type: 'text',
    conversation_id: conversationId,
    message,
    image: extra.image ?? [],
    reply: extra.reply ?? null,
    announce: extra.announce ?? false,
    client_id: randomUUID(),
    ...(extra.stamp_id === undefined ? {} : { stamp_id: extra.stamp_id }),
  });
  if (result.outcome !== 'created') throw new Error(`not created: ${result.outcome}`);
  return result.message;
}

/** The member's desk conversation id. */
export async function deskOf(app: FastifyInstance, ssid: string): Promise<number> {
  const page = await app.services.conversations.list(await actorOf(app, ssid), {
    type: 'staff',
    search: '',
    page: 0,
  });
  const desk = page.rows[0];
  if (!desk) throw new Error('no desk conversation');
  return desk.id;
}

/** A room list as the client reads it. */
export async function roomList(app: FastifyInstance, session: string, type: ConversationType = 'staff') {
  const reply = await call(app, 'conversations', { ssid: session, type, page: 0 });
  expect(reply.status).toBe(200);
  return ConversationsReply.parse(reply.body).rows;
}

export const newClientId = () => randomUUID();

/** A text message for MessageRepository / MessageWriter tests: a member writing in their own talk. */
export function newMessage(
  conversationId: number,
  senderId: number,
  extra: Partial<NewMessage> = {},
): NewMessage {
  return {
    conversationId,
    senderId,
    mayWriteAnywhere: false,
    body: 'こんにちは',
    images: [],
    replyToId: null,
    announce: false,
    messageType: 0,
    clientId: randomUUID(),
    now: new Date(),
    marksRead: true,
    ...extra,
  };
}

/** A member's desk talk, read straight from the table (null for staff, who have none). */
export async function findDesk(db: Database, memberId: number): Promise<ConversationRecord | null> {
  const rows = await db
    .select()
    .from(conversations)
    .where(and(eq(conversations.kind, 'desk'), eq(conversations.memberId, memberId)))
    .limit(1);
  return rows[0] ?? null;
}
