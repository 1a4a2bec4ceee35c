import { ja } from '@enishi/contract';
import { getSession } from '../session';
import { getChatStatus } from './events';
import { sendFrame } from './live-socket';
import {
  addEntry,
  entriesToSend,
  getOutbox,
  removeEntry,
  toTextFrame,
  updateEntry,
  type OutboxEntry,
} from './outbox';

/*
 * Messages going out (product.md §15): each written one enters the outbox and goes on the socket when it is
 * live; what waits is sent when the connection is (back) up (socket.ts calls flushOutbox on `ready`).
 */

/** Put a message on the wire; it stays in the outbox until its echo comes back. */
export function sendEntry(entry: OutboxEntry): void {
  if (sendFrame(toTextFrame(entry))) {
    updateEntry(entry.client_id, { status: 'sending', attempts: entry.attempts + 1, error: null });
  }
}

/** Send what waits in this user's outbox (the socket is live), giving up those tried too often. */
export function flushOutbox(): void {
  const uid = getSession()?.uid;
  const { send, giveUp } = entriesToSend(getOutbox().filter((entry) => entry.uid === uid));
  for (const entry of giveUp) updateEntry(entry.client_id, { status: 'failed', error: ja.talk.failed });
  for (const entry of send) sendEntry(entry);
}

/** A new message: shown at once from the outbox, sent now if the socket is live, else when it is. */
export function submitMessage(entry: Omit<OutboxEntry, 'status' | 'error' | 'attempts' | 'uid'>): void {
  const session = getSession();
  if (!session) return;
  const full: OutboxEntry = { ...entry, uid: session.uid, status: 'waiting', error: null, attempts: 0 };
  addEntry(full);
  if (getChatStatus() === 'live') sendEntry(full);
}

/** Send a failed message again (the user asked to). */
export function retryMessage(clientId: string): void {
  const entry = getOutbox().find((candidate) => candidate.client_id === clientId);
  if (!entry) return;
  const waiting = { ...entry, status: 'waiting' as const, error: null, attempts: 0 };
  updateEntry(clientId, waiting);
  if (getChatStatus() === 'live') sendEntry(waiting);
}

/** Give up a message that has not been stored (it may still be stored if its frame is already on the wire). */
export const discardMessage = (clientId: string): void => removeEntry(clientId);
