import type { FastifyInstance } from 'fastify';
import { STAMP_SET_BODY_LIMIT } from '@enishi/contract';
import type { apiCalls } from '../http/calls.js';
import { serveSignedImages } from '../http/signed-images.js';
import type { StampService } from '../services/stamp-service.js';

/**
 * Stamps (product.md §12.8): the picker's sets, the staff's screen, and GET /media/stamp/<id> for a stamp's
 * picture (signed for anyone signed in who is given it: a stamp is the club's, not one talk's).
 */
export function stampRoutes(
  app: FastifyInstance,
  calls: ReturnType<typeof apiCalls>,
  services: { stamps: StampService },
): void {
  calls.session('stamps', 'talk.write', async ({ actor }) => services.stamps.list(actor));

  calls.session('stamps/sets', 'stamp.manage', async ({ actor }) => ({
    sets: await services.stamps.allSets(actor),
  }));

  calls.session(
    'stamps/add_set',
    'stamp.manage',
    async ({ body, actor }) => ({ status: 'OK', ...(await services.stamps.addSet(actor, body)) }),
    { bodyLimit: STAMP_SET_BODY_LIMIT },
  );

  calls.session('stamps/update_set', 'stamp.manage', async ({ body, actor }) => {
    await services.stamps.setEnabled(actor, body.id, body.enabled);
    return { status: 'OK' };
  });

  serveSignedImages(app, '/media/stamp', services.stamps);
}
