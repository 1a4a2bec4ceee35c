import type { FastifyInstance } from 'fastify';
import { serveSignedImages } from '../http/signed-images.js';
import type { MediaService } from '../services/media-service.js';

/** GET /media/<id>: a talk image (403 when the URL was changed or expired, 404 once its message is deleted). */
export function mediaRoutes(app: FastifyInstance, services: { media: MediaService }): void {
  serveSignedImages(app, '/media', services.media);
}
