import type { FastifyInstance } from 'fastify';
import { ja } from '@enishi/contract';
import { metrics, tokenMatches } from '../lib/metrics.js';

/**
 * GET /metrics (product.md §10.3): Prometheus text, only when METRICS_TOKEN is set (else 404, as any unknown
 * path) and only with `Authorization: Bearer <token>` (else 401). Not an API call: no session, no JSON.
 */
export function metricsRoutes(app: FastifyInstance, token: string | null): void {
  if (token === null) return;
  metrics.withDefaults();
  app.get('/metrics', { logLevel: 'warn' }, async (request, reply) => {
    const header = request.headers.authorization ?? '';
    const presented = /^Bearer (\S+)$/.exec(header)?.[1];
    if (presented === undefined || !tokenMatches(presented, token)) {
      return reply
        .code(401)
        .header('www-authenticate', 'Bearer realm="metrics"')
        .send({ error: ja.errors.unauthorized });
    }
    return reply
      .header('cache-control', 'no-store')
      .type(metrics.contentType)
      .send(await metrics.text());
  });
}
