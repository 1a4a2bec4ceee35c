import type { ServerFrame } from '@enishi/contract';
import { presentMessage } from '../presenters/message-presenter.js';
import type { MessageService } from '../services/message-service.js';
import type { Actor } from '../services/session-service.js';

/** Catch-up after `last_id` comes in batches of this many messages. */
const CATCH_UP_BATCH = 200;
/** A client further behind than this is told to reload over HTTP (a `reload` frame) instead. */
export const CATCH_UP_MAX = 10_000;

/**
 * A reconnecting client's catch-up (product.md §15): every message after `lastId` the actor may see,
 * in id order, sent until the socket closes. Returns the id the client is now up to: the last id sent, or
 * the newest id the actor may see when there is nothing to send (no `lastId`, or one at or beyond the
 * newest: a client never misses live messages because it claimed an id that does not exist yet). More than
 * CATCH_UP_MAX behind, nothing is sent but `reload`. The caller subscribes first and holds live events
 * until this returns, so a message committed meanwhile is not missed.
 */
export async function sendCatchUp(
  messages: MessageService,
  actor: Actor,
  lastId: number | null | undefined,
  socket: { readonly closed: boolean; send(frame: ServerFrame): void },
): Promise<number> {
  const newest = await messages.newestVisibleId(actor);
  if (lastId == null || lastId >= newest) return newest;
  if (await messages.moreVisibleAfter(actor, lastId, CATCH_UP_MAX)) {
    socket.send({ type: 'reload' });
    return newest;
  }
  let after = lastId;
  for (;;) {
    const found = await messages.after(actor, after, CATCH_UP_BATCH);
    for (const message of found) socket.send({ type: 'message', ...presentMessage(actor, message) });
    after = found.at(-1)?.id ?? after;
    if (found.length < CATCH_UP_BATCH || after >= newest || socket.closed) return after;
  }
}
