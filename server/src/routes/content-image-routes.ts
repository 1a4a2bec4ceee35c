import type { FastifyInstance } from 'fastify';
import { serveSignedImages } from '../http/signed-images.js';
import type { ContentImageService } from '../services/content-image-service.js';

/**
 * GET /media/content/<id>: a news or banner image, signed only for staff and the members of the item's group
 * (404 once the news item or banner is deleted).
 */
export function contentImageRoutes(
  app: FastifyInstance,
  services: { contentImages: ContentImageService },
): void {
  serveSignedImages(app, '/media/content', services.contentImages);
}
