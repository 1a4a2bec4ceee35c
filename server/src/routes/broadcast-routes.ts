import { BODY_LIMITS } from '@enishi/contract';
import type { apiCalls } from '../http/calls.js';
import type { BroadcastService } from '../services/broadcast-service.js';

export function broadcastRoutes(
  calls: ReturnType<typeof apiCalls>,
  services: { broadcasts: BroadcastService },
): void {
  // The sender is the session's user; an `id` the original client sends is ignored (product.md §12.7).
  calls.session(
    'messages/send',
    'broadcast.send',
    async ({ body, actor }) => ({
      status: 'OK',
      ...(await services.broadcasts.send(actor, body)),
    }),
    { bodyLimit: BODY_LIMITS.broadcast },
  );

  calls.session('broadcasts', 'broadcast.read', async ({ body, actor }) =>
    services.broadcasts.list(actor, body.type, body.page),
  );

  calls.session('broadcasts/scheduled', 'broadcast.read', async ({ body, actor }) => ({
    rows: await services.broadcasts.pending(actor, body.type),
  }));

  calls.session('broadcasts/scheduled/update', 'broadcast.send', async ({ body, actor }) => {
    await services.broadcasts.reschedule(actor, body.id, body.send_at, body.message);
    return { status: 'OK' as const };
  });

  calls.session('broadcasts/scheduled/cancel', 'broadcast.send', async ({ body, actor }) => {
    await services.broadcasts.cancel(actor, body.id);
    return { status: 'OK' as const };
  });

  calls.session('broadcasts/recipients', 'broadcast.send', async ({ body, actor }) => ({
    rows: await services.broadcasts.recipients(actor, body.type),
  }));
}
