import type { ServerFrame } from '@enishi/contract';
import { presentMessage } from '../presenters/message-presenter.js';
import type { MessageService } from '../services/message-service.js';
import type { Actor } from '../services/session-service.js';

/** Catch-up after `last_id` comes in batches of this many messages. */
const CATCH_UP_BATCH = 200;
/** A client further behind than this is told to reload over HTTP (a `reload` frame) instead. */
export const CATCH_UP_MAX = 10_000;

/**
 * A reconnecting client's catch-up (product.md §15): every message after `sent.lastId` the actor may see,
 * in id order, sent until the socket closes. Returns the id the client is now up to: the last id sent, or
 * the newest id the actor may see when there is nothing to send (no `lastId`, or one at or beyond the
 * newest: a client never misses live messages because it claimed an id that does not exist yet). More than
 * CATCH_UP_MAX behind, nothing is sent but `reload`. The caller subscribes first and holds live events
 * until this returns, so a message committed meanwhile is not missed.
 */
export async function sendCatchUp(
  messages: MessageService,
  actor: Actor,
  sent: SentByCatchUp,
  socket: { readonly closed: boolean; send(frame: ServerFrame): void },
): Promise<number> {
  const { lastId } = sent;
  const newest = await messages.newestVisibleId(actor);
  if (lastId == null || lastId >= newest) {
    // A claim beyond the newest is the newest: later messages must still go.
    sent.claimAtMost(newest);
    return newest;
  }
  if (await messages.moreVisibleAfter(actor, lastId, CATCH_UP_MAX)) {
    socket.send({ type: 'reload' });
    return newest;
  }
  let after = lastId;
  for (;;) {
    const found = await messages.after(actor, after, CATCH_UP_BATCH);
    for (const message of found) {
      sent.add(message.id);
      socket.send({ type: 'message', ...presentMessage(actor, message) });
    }
    after = found.at(-1)?.id ?? after;
    if (found.length < CATCH_UP_BATCH || after >= newest || socket.closed) return after;
  }
}

/**
 * What a socket's client has of the messages: everything up to its `last_id` (each instance hands its
 * sockets new messages in id order with no gap, decision 019) and what the catch-up sent after it. A live
 * message is dropped only when it is one of those: one with an id at or below the catch-up's last that the
 * catch-up did not read (its publish came late) still goes.
 */
export class SentByCatchUp {
  private claimed: number;
  private ids: Set<number> | null = new Set();
  private last = 0;

  constructor(readonly lastId: number | null | undefined) {
    this.claimed = lastId ?? 0;
  }

  claimAtMost(id: number): void {
    this.claimed = Math.min(this.claimed, id);
  }

  add(id: number): void {
    this.ids?.add(id);
    this.last = id;
  }

  has(id: number): boolean {
    if (id <= this.claimed) return true;
    if (!this.ids) return false;
    if (id > this.last) {
      // Live messages come in id order: none the catch-up sent can follow this one.
      this.ids = null;
      return false;
    }
    return this.ids.has(id);
  }
}
