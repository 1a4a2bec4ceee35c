import type { ServerFrame } from '@enishi/contract';
import { presentMessage } from '../presenters/message-presenter.js';
import type { MessageService } from '../services/message-service.js';
import type { Actor } from '../services/session-service.js';

/** Catch-up after `last_id` comes in batches; a client further behind than this reloads over HTTP. */
const CATCH_UP_BATCH = 200;
const CATCH_UP_MAX_BATCHES = 50;

/**
 * A reconnecting client's catch-up (API.md "Chat socket"): every message after `lastId` the actor may see,
 * in id order, sent until the socket closes. Returns the last id sent (or `lastId`); with no `lastId`,
 * nothing is sent and the answer is the newest id the actor may see. The caller subscribes first and holds
 * live events until this returns, so a message committed meanwhile is not missed.
 */
export async function sendCatchUp(
  messages: MessageService,
  actor: Actor,
  lastId: number | null | undefined,
  socket: { readonly closed: boolean; send(frame: ServerFrame): void },
): Promise<number> {
  if (lastId == null) return messages.newestVisibleId(actor);
  let after = lastId;
  for (let batch = 0; batch < CATCH_UP_MAX_BATCHES; batch += 1) {
    const found = await messages.after(actor, after, CATCH_UP_BATCH);
    for (const message of found) socket.send({ type: 'message', ...presentMessage(actor, message) });
    after = found.at(-1)?.id ?? after;
    if (found.length < CATCH_UP_BATCH || socket.closed) break;
  }
  return after;
}
