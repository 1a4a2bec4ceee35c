import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import type { FastifyInstance } from 'fastify';
import { forbidden, notFound } from '../errors.js';
import type { MediaService } from '../services/media-service.js';

const MEDIA_ID = /^[A-Za-z0-9_-]{22}$/;

/**
 * GET /media/<id>?e=<expiry>&s=<signature>: a talk image, for a plain <img>. The signed URL is the
 * permission (issued only to those who may see the message); a changed or expired one is 403, and the
 * image of a deleted message is 404.
 */
export function mediaRoutes(app: FastifyInstance, services: { media: MediaService }): void {
  app.get('/media/:id', async (request, reply) => {
    const { id } = request.params as { id: string };
    const query = request.query as Record<string, unknown>;
    const expiry = typeof query.e === 'string' ? query.e : '';
    const signature = typeof query.s === 'string' ? query.s : '';
    if (!MEDIA_ID.test(id) || !services.media.verify(id, expiry, signature)) throw forbidden();

    const image = await services.media.find(id, expiry);
    const size = image && (await stat(image.file).catch(() => null))?.size;
    if (!image || !size) throw notFound();
    return reply
      .type(image.mime)
      .header('content-length', size)
      .header('cache-control', `private, max-age=${image.maxAge}`)
      .send(createReadStream(image.file));
  });
}
