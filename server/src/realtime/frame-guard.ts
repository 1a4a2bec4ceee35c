import { firstErrorMessage } from '@enishi/contract';
import type { WebSocket } from 'ws';
import type { z } from 'zod';
import { AppError } from '../errors.js';

interface WithReceiver {
  _receiver?: { _maxPayload: number } | null;
}

/**
 * Sets the largest frame this one socket accepts; a bigger one closes it with 1009 as soon as its header
 * arrives, before any of its bytes are held. `ws` has the limit per server only, so this sets its
 * receiver's field (ws 8); the chat-socket tests fail if that field ever moves.
 */
export function limitFrameSize(ws: WebSocket, bytes: number): void {
  const receiver = (ws as unknown as WithReceiver)._receiver;
  if (!receiver || typeof receiver._maxPayload !== 'number')
    throw new Error('ws receiver has no frame limit');
  receiver._maxPayload = bytes;
}

/** A client frame checked against its schema; a frame that does not fit is refused with its Japanese text. */
export function parseFrame<S extends z.ZodType>(schema: S, frame: Record<string, unknown>): z.output<S> {
  const result = schema.safeParse(frame);
  if (!result.success) throw new AppError('bad-request', firstErrorMessage(result.error));
  return result.data;
}
