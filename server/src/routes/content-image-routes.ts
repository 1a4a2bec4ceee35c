import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import type { FastifyInstance } from 'fastify';
import { forbidden, notFound } from '../errors.js';
import type { ContentImageService } from '../services/content-image-service.js';

const IMAGE_ID = /^[A-Za-z0-9_-]{22}$/;

/**
 * GET /media/content/<id>?e=<expiry>&s=<signature>: a news or banner image, for a plain <img>. The signed
 * URL is the permission (issued only to staff and to members of the news item's or banner's group); a
 * changed or expired one is 403, and the image of a deleted news item or banner is 404.
 */
export function contentImageRoutes(
  app: FastifyInstance,
  services: { contentImages: ContentImageService },
): void {
  app.get('/media/content/:id', async (request, reply) => {
    const { id } = request.params as { id: string };
    const query = request.query as Record<string, unknown>;
    const expiry = typeof query.e === 'string' ? query.e : '';
    const signature = typeof query.s === 'string' ? query.s : '';
    if (!IMAGE_ID.test(id) || !services.contentImages.verify(id, expiry, signature)) throw forbidden();

    const image = await services.contentImages.find(id, expiry);
    const size = image && (await stat(image.file).catch(() => null))?.size;
    if (!image || !size) throw notFound();
    return reply
      .type(image.mime)
      .header('content-length', size)
      .header('cache-control', `private, max-age=${image.maxAge}`)
      .send(createReadStream(image.file));
  });
}
