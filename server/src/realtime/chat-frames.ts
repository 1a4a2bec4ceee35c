import {
  DeleteFrame,
  ja,
  OpenFrame,
  PinFrame,
  TextFrame,
  UnsendFrame,
  VisibilityFrame,
  type ServerFrame,
  can,
  jaMember,
  type Permission,
} from '@enishi/contract';
import type { FastifyBaseLogger } from 'fastify';
import { AppError, refusalOf } from '../errors.js';
import { parseFrame } from './frame-guard.js';
import { presentMessage } from '../presenters/message-presenter.js';
import type { SocketServices } from './socket-services.js';
import type { Actor } from '../services/session-service.js';
import { CALL_FRAME_TYPES, handleCallFrame, type CallSocket } from './call-frames.js';
import type { FrameReply } from './frame-reader-protocol.js';

export type Frame = Record<string, unknown>;
/** The pictures of a text frame as the frame reader decoded them (FrameReply.pictures). */
export type ReadPictures = FrameReply['pictures'];

/** What handling a frame needs of its socket. */
export interface FrameSocket extends CallSocket {
  send(frame: ServerFrame): void;
  /** `retry`: nothing was done, and the same frame may be sent again (ErrorEvent.retry). */
  sendError(error: string, clientId?: string, retry?: boolean): void;
  /** Opens a talk (null: none on screen) and marks it read. */
  openTalk(conversationId: number | null): Promise<void>;
  /** The app went on or off screen: pushes to this person wait while it is on. */
  setVisible(visible: boolean): void;
}

/** An `error` frame (product.md §15.3): about the frame with `clientId`, to be sent again when `retry`. */
export function errorFrame(error: string, clientId?: string, retry = false): ServerFrame {
  return {
    type: 'error',
    error,
    ...(clientId === undefined ? {} : { client_id: clientId }),
    ...(retry ? { retry: true as const } : {}),
  };
}

export function clientIdOf(frame: Frame): string | undefined {
  const id = frame.client_id;
  return typeof id === 'string' && id.length <= 64 ? id : undefined;
}

/**
 * The permission each client frame needs (packages/contract/src/permissions.ts; docs/permissions.md is
 * generated from this). A role without it gets an `error` frame with `FRAME_REFUSALS`' text (the calls'
 * own wording for call frames, as the call service words a refused pair), and the frame does nothing.
 */
export const FRAME_PERMISSIONS = {
  text: 'talk.write',
  delete: 'talk.delete',
  pin: 'talk.write',
  unsend: 'talk.unsend',
  open: 'talk.read',
  visibility: 'account.use',
  calling: 'call.place',
  offer: 'call.place',
  answer: 'call.place',
  candidate: 'call.place',
  cancelCall: 'call.place',
  staff: 'call.place',
} as const satisfies Record<string, Permission>;

export type ClientFrameType = keyof typeof FRAME_PERMISSIONS;

export function frameRefusal(type: ClientFrameType): string {
  return CALL_FRAME_TYPES.has(type) && type !== 'staff' ? jaMember.calls.notAllowed : ja.errors.forbidden;
}

const isFrameType = (type: unknown): type is ClientFrameType =>
  typeof type === 'string' && Object.hasOwn(FRAME_PERMISSIONS, type);

/** One client frame after the session frame (product.md §15); a refusal is an `error` frame. */
export async function handleFrame(
  services: SocketServices,
  log: FastifyBaseLogger,
  socket: FrameSocket,
  actor: Actor,
  frame: Frame,
  pictures: ReadPictures = null,
): Promise<void> {
  try {
    if (!isFrameType(frame.type)) throw new AppError('bad-request', ja.errors.badRequest);
    if (!can(actor, FRAME_PERMISSIONS[frame.type])) throw new AppError('forbidden', frameRefusal(frame.type));
    switch (frame.type) {
      case 'text':
        return await handleText(services, socket, actor, frame, pictures);
      case 'delete': {
        const parsed = parseFrame(DeleteFrame, frame);
        if ('delete_message_id' in parsed) await services.messages.delete(actor, parsed.delete_message_id);
        else await services.messages.unpin(actor, parsed.delete_announce_id);
        return;
      }
      case 'pin':
        return await services.messages.pin(actor, parseFrame(PinFrame, frame).message_id);
      case 'unsend':
        return await services.messages.unsend(actor, parseFrame(UnsendFrame, frame).message_id);
      case 'open':
        return await socket.openTalk(parseFrame(OpenFrame, frame).conversation_id ?? null);
      case 'visibility':
        return socket.setVisible(parseFrame(VisibilityFrame, frame).visible);
      case 'calling':
      case 'offer':
      case 'answer':
      case 'candidate':
      case 'cancelCall':
      case 'staff':
        return await handleCallFrame(services.calls, socket, actor, frame);
      default:
        throw new AppError('bad-request', ja.errors.badRequest);
    }
  } catch (error) {
    answerFailure(log, socket, frame, error);
  }
}

/**
 * A frame that failed is answered, never dropped: with its refusal's text, the database's absence as one to
 * send again (decision 020), anything else as an internal error (logged).
 */
export function answerFailure(
  log: FastifyBaseLogger,
  socket: FrameSocket,
  frame: Frame,
  error: unknown,
): void {
  const refusal = refusalOf(error);
  if (refusal?.kind === 'unavailable') {
    if (refusal !== error) log.warn({ err: error }, 'chat frame: database unreachable');
    return socket.sendError(refusal.message, clientIdOf(frame), true);
  }
  if (refusal) return socket.sendError(refusal.message, clientIdOf(frame));
  log.error({ err: error }, 'chat frame failed');
  socket.sendError(ja.errors.internal, clientIdOf(frame));
}

async function handleText(
  services: SocketServices,
  socket: FrameSocket,
  actor: Actor,
  frame: Frame,
  pictures: ReadPictures,
) {
  const parsed = parseFrame(TextFrame, frame);
  const refusal = await services.fairUse.refusal(actor.uid, parsed.image.length);
  if (refusal) throw new AppError('rate-limited', refusal);
  // A picture the frame reader decoded goes on as its bytes; its place in the frame held only a stand-in.
  const image = parsed.image.map((dataUrl, i) => {
    const bytes = pictures?.[i];
    return bytes ? Buffer.from(bytes) : dataUrl;
  });
  const result = await services.messages.send(actor, { ...parsed, image });
  // A new message reaches this socket through the delivery like everyone else's copy. A repeat is
  // answered here only: the others already have it.
  if (result.outcome === 'duplicate') {
    socket.send({ type: 'message', ...presentMessage(actor, result.message) });
  } else if (result.outcome === 'deleted') {
    socket.send({
      type: 'delete',
      conversation_id: result.conversationId,
      delete_message_id: result.messageId,
    });
  }
}
