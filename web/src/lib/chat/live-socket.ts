import type { ClientFrame } from '@enishi/contract';
import { getChatStatus } from './events';

/*
 * The chat socket of this moment (socket.ts makes and ends it) and the one way to send on it, for the
 * outbox (sending.ts), calls and the talk on screen.
 */

let socket: WebSocket | null = null;

export const liveSocket = (): WebSocket | null => socket;

export function setLiveSocket(next: WebSocket | null): void {
  socket = next;
}

/** Send a frame now; false when the socket is not live (nothing is queued: only messages wait, in the outbox). */
export function sendFrame(frame: ClientFrame): boolean {
  if (getChatStatus() !== 'live' || !socket || socket.readyState !== WebSocket.OPEN) return false;
  socket.send(JSON.stringify(frame));
  return true;
}
