import {
  BODY_LIMITS,
  BroadcastSendBody,
  BroadcastsBody,
  RecipientsBody,
  type BroadcastSendReply,
  type BroadcastsReply,
  type RecipientsReply,
} from '@enishi/contract';
import type { apiCalls } from '../http/calls.js';
import type { BroadcastService } from '../services/broadcast-service.js';

export function broadcastRoutes(
  calls: ReturnType<typeof apiCalls>,
  services: { broadcasts: BroadcastService },
): void {
  // The sender is the session's user; an `id` the original client sends is ignored (API.md).
  calls.session(
    'messages/send',
    BroadcastSendBody,
    async ({ body, actor }): Promise<BroadcastSendReply> => ({
      status: 'OK',
      ...(await services.broadcasts.send(actor, body)),
    }),
    { bodyLimit: BODY_LIMITS.broadcast },
  );

  calls.session('broadcasts', BroadcastsBody, async ({ body, actor }): Promise<BroadcastsReply> =>
    services.broadcasts.list(actor, body.type, body.page),
  );

  calls.session(
    'broadcasts/recipients',
    RecipientsBody,
    async ({ body, actor }): Promise<RecipientsReply> => ({
      rows: await services.broadcasts.recipients(actor, body.type),
    }),
  );
}
