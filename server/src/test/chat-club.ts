import type { ServerFrame } from '@enishi/contract';
import { count, eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { messages } from '../db/schema.js';
import { call, createTestContext, createUser, login, type TestContext, type TestUser } from './app.js';
import { closeAll, listen, TestSocket } from './socket.js';
import { actorOf, deskOf, newClientId } from './talk.js';

/*
 * A small club for the chat socket tests, one per test file: staff (an admin and a helper), a man and a
 * woman with a group talk, a man outside it, and the staff room, served on a real port. Its parts are live
 * bindings, set once `useChatClub()`'s beforeAll has run.
 */

export type MessageFrame = Extract<ServerFrame, { type: 'message' }>;
export type ErrorFrame = Extract<ServerFrame, { type: 'error' }>;

export const isMessage = (clientId?: string) => (frame: ServerFrame) =>
  frame.type === 'message' && (clientId === undefined || frame.client_id === clientId);
export const isError = (frame: ServerFrame) => frame.type === 'error';

export let ctx: TestContext;
export let base: string;
export let admin: TestUser;
export let helper: TestUser;
export let man: TestUser;
export let woman: TestUser;
export let outsider: TestUser;
/** Sessions by login ID. */
export const ssid: Record<string, string> = {};
export let manDesk: number;
export let womanDesk: number;
export let outsiderDesk: number;
export let groupTalk: number;
export let staffRoom: number;
/** Sockets closed after each test. */
export const open: TestSocket[] = [];

/** Opens an authenticated socket that is closed after the test. */
export async function connect(session: string, options: { last_id?: number | null } = {}) {
  const socket = await TestSocket.session(base, session, options);
  open.push(socket);
  return socket;
}

export function text(conversationId: number, message: string, extra: Record<string, unknown> = {}) {
  return {
    type: 'text',
    conversation_id: conversationId,
    conversation_type: null,
    message,
    image: [],
    reply: null,
    announce: false,
    client_id: newClientId(),
    ...extra,
  };
}

/** Sends a message and waits for the sender's own echo (which comes only after the commit). */
export async function say(socket: TestSocket, conversationId: number, message: string) {
  const frame = text(conversationId, message);
  socket.send(frame);
  return socket.take<MessageFrame>(isMessage(frame.client_id));
}

/**
 * Everything published before this call has reached `socket` when it returns: the socket's frames are
 * handled in order, and this one (opening a talk that does not exist) always answers an error.
 */
export async function barrier(socket: TestSocket) {
  socket.send({ type: 'open', conversation_id: 2_000_000_000 });
  await socket.take(isError);
}

export async function messageCount(conversationId?: number) {
  const rows = await ctx.database.db
    .select({ n: count() })
    .from(messages)
    .where(conversationId === undefined ? undefined : eq(messages.conversationId, conversationId));
  return rows[0]!.n;
}

async function openClub() {
  ctx = await createTestContext({ deps: { socketAuthTimeoutMs: 300 } });
  admin = await createUser(ctx.app, { loginId: 'admin', role: 1, name: '管理者' });
  helper = await createUser(ctx.app, { loginId: 'helper', role: 6, name: '補助スタッフ' });
  man = await createUser(ctx.app, { loginId: 'taro', role: 101, name: '山田 太郎' });
  woman = await createUser(ctx.app, { loginId: 'hanako', role: 201, name: '佐藤 花子' });
  outsider = await createUser(ctx.app, { loginId: 'jiro', role: 101, name: '鈴木 次郎' });
  for (const user of [admin, helper, man, woman, outsider]) ssid[user.loginId] = await login(ctx.app, user);
  manDesk = await deskOf(ctx.app, ssid.taro!);
  womanDesk = await deskOf(ctx.app, ssid.hanako!);
  outsiderDesk = await deskOf(ctx.app, ssid.jiro!);
  const talk = await ctx.app.services.conversations.createGroupTalk(await actorOf(ctx.app, ssid.admin!), {
    manId: man.uid,
    womanId: woman.uid,
  });
  groupTalk = talk.id;
  await ctx.app.services.conversations.ensureStaffRoom();
  const rooms = await call(ctx.app, 'conversations', {
    ssid: ssid.admin,
    type: 'staff',
    search: '',
    page: 0,
  });
  staffRoom = (rooms.body as { rows: { id: number }[] }).rows[0]!.id;
  base = await listen(ctx.app);
}

/** Opens the club before the file's tests, closes each test's sockets after it, and the club at the end. */
export function useChatClub(): void {
  beforeAll(openClub);
  afterEach(async () => {
    await closeAll(open.splice(0));
  });
  afterAll(() => ctx.close());
}
