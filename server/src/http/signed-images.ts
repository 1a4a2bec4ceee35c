import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import type { FastifyInstance } from 'fastify';
import { forbidden, notFound } from '../errors.js';

/** Where a kind of stored image comes from: its signature check and its file. */
export interface SignedImageSource {
  verify(id: string, expiry: string, signature: string): boolean;
  find(id: string, expiry: string): Promise<{ file: string; maxAge: number; mime?: string } | null>;
  /** The image scaled to a width (`&w=`), when this kind of image has such variants. */
  variant?(
    id: string,
    expiry: string,
    width: number,
  ): Promise<{ file: string; maxAge: number; mime?: string } | null>;
}

/** The ids our stores hand out; anything else is refused before the signature is even checked. */
const IMAGE_ID = /^[A-Za-z0-9_-]{22}$/;

/**
 * GET `<prefix>/<id>?e=<expiry>&s=<signature>`, for a plain <img>: the signed URL is the permission (issued
 * only to those who may see the image); a changed or expired one is 403, an image since removed 404.
 * `&w=<width>` asks for a smaller variant where the source has them (banners); another width is 404.
 */
export function serveSignedImages(app: FastifyInstance, prefix: string, source: SignedImageSource): void {
  app.get(`${prefix}/:id`, async (request, reply) => {
    const { id } = request.params as { id: string };
    const query = request.query as Record<string, unknown>;
    const expiry = typeof query.e === 'string' ? query.e : '';
    const signature = typeof query.s === 'string' ? query.s : '';
    if (!IMAGE_ID.test(id) || !source.verify(id, expiry, signature)) throw forbidden();

    const width = typeof query.w === 'string' && /^\d{1,4}$/.test(query.w) ? Number(query.w) : null;
    if (query.w !== undefined && (width === null || !source.variant)) throw notFound();
    const image = width === null ? await source.find(id, expiry) : await source.variant!(id, expiry, width);
    const size = image && (await stat(image.file).catch(() => null))?.size;
    if (!image || !size) throw notFound();
    return reply
      .type(image.mime ?? 'image/jpeg')
      .header('content-length', size)
      .header('cache-control', `private, max-age=${image.maxAge}`)
      .send(createReadStream(image.file));
  });
}
