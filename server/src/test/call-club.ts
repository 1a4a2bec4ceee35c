import type { ServerFrame } from '@enishi/contract';
import { and, eq } from 'drizzle-orm';
import { messages } from '../db/schema.js';
import { call, createUser, login, type TestContext, type TestUser } from './app.js';
import type { PushReceiver, TestSubscriber } from './push-receiver.js';
import { closeAll, TestSocket } from './socket.js';
import { deskOf } from './talk.js';

/* Helpers of the voice-call tests (product.md §17): people, their sockets, and what the calls left behind. */

export type CallFrame<T extends ServerFrame['type']> = Extract<ServerFrame, { type: T }>;

/** An SDP a browser would send (the server passes it on unread). */
export const SDP = 'v=0\r\no=- 1 2 IN IP4 127.0.0.1\r\ns=-\r\nt=0 0\r\nm=audio 9 UDP/TLS/RTP/SAVPF 111\r\n';
export const ICE = {
  candidate: 'candidate:1 1 udp 2122260223 127.0.0.1 50000 typ host',
  sdpMid: '0',
  sdpMLineIndex: 0,
};

export interface Person extends TestUser {
  ssid: string;
}

export async function person(ctx: TestContext, loginId: string, role: number, name: string): Promise<Person> {
  const user = await createUser(ctx.app, { loginId, role, name });
  return { ...user, ssid: await login(ctx.app, user) };
}

/** The people of a call test: three staff members of different roles and two men, ids under `prefix`. */
export interface CallPeople {
  staff: Person;
  helper: Person;
  owner: Person;
  man: Person;
  otherMan: Person;
}

export async function callPeople(ctx: TestContext, prefix: string, helperRole: number): Promise<CallPeople> {
  return {
    staff: await person(ctx, `${prefix}-staff`, 3, '受付 佐藤'),
    helper: await person(ctx, `${prefix}-helper`, helperRole, '補助 鈴木'),
    owner: await person(ctx, `${prefix}-owner`, 2, '代表 田中'),
    man: await person(ctx, `${prefix}-man`, 101, '山田 太郎'),
    otherMan: await person(ctx, `${prefix}-man2`, 101, '高橋 次郎'),
  };
}

export const is =
  <T extends ServerFrame['type']>(type: T, check: (frame: CallFrame<T>) => boolean = () => true) =>
  (frame: ServerFrame) =>
    frame.type === type && check(frame as CallFrame<T>);

export const cancelled = (reason: string) => is('cancelCall', (frame) => frame.reason === reason);

/**
 * Everything the server sent `socket` before this has arrived: frames are handled in order, and asking for
 * the staff list (or, for a woman, being refused it) always answers.
 */
export async function settle(socket: TestSocket): Promise<void> {
  socket.send({ type: 'staff' });
  await socket.take((frame) => frame.type === 'staff' || frame.type === 'error');
}

/** The call frames `socket` got and no test took (presence aside: other tests' sockets come and go). */
export const callFrames = (socket: TestSocket) =>
  socket
    .untaken()
    .filter(
      (frame) => !['notifications', 'ready', 'read', 'message', 'updateConnection'].includes(frame.type),
    );

/** The call records (message_type 1) in the member's desk talk, oldest first. */
export async function records(ctx: TestContext, member: Person) {
  const desk = await deskOf(ctx.app, member.ssid);
  const rows = await ctx.database.db
    .select({ body: messages.body, senderId: messages.senderId })
    .from(messages)
    .where(and(eq(messages.conversationId, desk), eq(messages.messageType, 1)))
    .orderBy(messages.id);
  return rows;
}

/** Places a call from `caller` to `callee` and waits until the callee's socket rings. */
export async function ring(caller: TestSocket, callee: TestSocket, to: number) {
  caller.send({ type: 'calling', to });
  const calling = await callee.take<CallFrame<'calling'>>(is('calling'));
  const ringing = await caller.take<CallFrame<'ringing'>>(is('ringing'));
  return { calling, ringing };
}

/** The callee accepts (offer), the caller answers: the call is connected. */
export async function connectCall(
  caller: TestSocket,
  callerUid: number,
  callee: TestSocket,
  calleeUid: number,
) {
  callee.send({ type: 'offer', to: callerUid, sdp: SDP });
  const offer = await caller.take<CallFrame<'offer'>>(is('offer'));
  caller.send({ type: 'answer', to: calleeUid, sdp: SDP });
  const answer = await callee.take<CallFrame<'answer'>>(is('answer'));
  return { offer, answer };
}

export async function subscribePush(ctx: TestContext, receiver: PushReceiver, who: Person, name: string) {
  const subscriber: TestSubscriber = receiver.subscriber(name);
  await call(ctx.app, 'subscript', { ssid: who.ssid, subscript: subscriber.toJSON() });
  return subscriber;
}

/** The sockets a test opens, all closed after it (`afterEach(() => sockets.closeAll())`). */
export class Sockets {
  private readonly open: TestSocket[] = [];

  async connect(base: string, who: Person): Promise<TestSocket> {
    return this.track(await TestSocket.session(base, who.ssid));
  }

  track(socket: TestSocket): TestSocket {
    this.open.push(socket);
    return socket;
  }

  closeAll(): Promise<void> {
    return closeAll(this.open.splice(0));
  }
}
