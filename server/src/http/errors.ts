import type { FastifyError, FastifyInstance } from 'fastify';
import { ERROR_TEXT_BY_STATUS, ja } from '@enishi/contract';
import { AppError, refusalOf, type ErrorKind } from '../errors.js';

export const STATUS_BY_KIND: Record<ErrorKind, number> = {
  'bad-request': 400,
  unauthorized: 401,
  forbidden: 403,
  'not-found': 404,
  conflict: 409,
  'too-large': 413,
  'rate-limited': 429,
  'bad-gateway': 502,
  'gateway-timeout': 504,
  unavailable: 503,
};

/**
 * The one place that turns a thrown error into a reply (`{"error": "<Japanese>"}`, product.md §11.3). Client
 * mistakes that Fastify itself catches (bad JSON, wrong content type, oversized body) become 4xx; a database
 * that does not answer is a 503 (the request did nothing; decision 020); anything else is a 500 whose details
 * go only to the log.
 */
export function installErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError | AppError, request, reply) => {
    if (error instanceof AppError) {
      return reply.code(STATUS_BY_KIND[error.kind]).send({ ...error.details, error: error.message });
    }
    const unreachable = refusalOf(error);
    if (unreachable) {
      request.log.warn({ err: error }, 'database unreachable');
      return reply.code(STATUS_BY_KIND[unreachable.kind]).send({ error: unreachable.message });
    }
    const status = error.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      request.log.info({ code: error.code, status }, 'client error');
      switch (error.code) {
        case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
        case 'FST_ERR_CTP_EMPTY_JSON_BODY':
        case 'FST_ERR_CTP_INVALID_JSON_BODY':
        case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
          return reply.code(400).send({ error: ja.errors.malformedJson });
      }
      // JSON.parse failures and prototype-poisoning rejections carry status 400 but no code.
      if (error instanceof SyntaxError) return reply.code(400).send({ error: ja.errors.malformedJson });
      return reply.code(status).send({ error: ERROR_TEXT_BY_STATUS[status] ?? ja.errors.badRequest });
    }
    request.log.error({ err: error }, 'unexpected error');
    return reply.code(500).send({ error: ja.errors.internal });
  });
}
