import {
  AnswerFrame,
  CallingFrame,
  CancelCallFrame,
  CandidateFrame,
  OfferFrame,
  StaffListFrame,
  type ServerFrame,
} from '@enishi/contract';
import { parseFrame } from './frame-guard.js';
import type { CallService } from '../services/call-service.js';
import type { Actor } from '../services/session-service.js';

/** What a call frame needs of its socket. */
export interface CallSocket {
  readonly socketId: string;
  send(frame: ServerFrame): void;
  /** The socket now carries a call (its loss ends the call; it is watched for going silent), or no longer. */
  carryCall(carrying: boolean): void;
}

export const CALL_FRAME_TYPES = new Set(['calling', 'offer', 'answer', 'candidate', 'cancelCall', 'staff']);

/** A voice-call frame (product.md §17); a refusal throws AppError (an `error` frame, passed on to no one). */
export async function handleCallFrame(
  calls: CallService,
  socket: CallSocket,
  actor: Actor,
  frame: Record<string, unknown>,
): Promise<void> {
  const { socketId } = socket;
  switch (frame.type) {
    case 'calling': {
      const { to } = parseFrame(CallingFrame, frame);
      if (await calls.calling(actor, socketId, to)) socket.carryCall(true);
      return;
    }
    case 'offer': {
      const { to, sdp } = parseFrame(OfferFrame, frame);
      if (await calls.offer(actor, socketId, to, sdp)) socket.carryCall(true);
      return;
    }
    case 'answer': {
      const { to, sdp } = parseFrame(AnswerFrame, frame);
      return calls.answer(actor, socketId, to, sdp);
    }
    case 'candidate': {
      const { to, ice } = parseFrame(CandidateFrame, frame);
      return calls.candidate(actor, socketId, to, ice);
    }
    case 'cancelCall': {
      const { to } = parseFrame(CancelCallFrame, frame);
      await calls.cancel(actor, socketId, to);
      return socket.carryCall(false);
    }
    default:
      parseFrame(StaffListFrame, frame);
      socket.send({ type: 'staff', rows: await calls.staffList(actor) });
  }
}
