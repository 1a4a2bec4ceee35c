import type { FastifyInstance } from 'fastify';
import type { Readiness } from '../services/readiness.js';

/**
 * A members-only club: search engines may see the landing and the intro pages (prerendered, product.md §2.7)
 * with what draws them, and nothing else. The longest matching rule wins, so `Disallow: /` covers the rest.
 */
export const ROBOTS = [
  'User-agent: *',
  'Allow: /enter$',
  'Allow: /intro/male$',
  'Allow: /intro/female$',
  'Allow: /assets/',
  'Allow: /icons/',
  'Allow: /manifest.webmanifest',
  'Disallow: /',
  '',
].join('\n');

export function systemRoutes(app: FastifyInstance, readiness: Readiness): void {
  // Liveness: the process answers. Listening happens only after migrations and the owner check.
  app.get('/healthz', { logLevel: 'warn' }, async () => ({ status: 'ok' }));

  // Readiness (product.md §20): 503 naming what is down (database, migrations, schema, redis) while it is.
  app.get('/readyz', { logLevel: 'warn' }, async (_request, reply) => {
    const down = await readiness.check();
    if (down.length === 0) return { status: 'ok' };
    return reply.code(503).send({ status: 'unavailable', down });
  });

  app.get('/robots.txt', async (_request, reply) =>
    reply.type('text/plain; charset=utf-8').header('cache-control', 'public, max-age=86400').send(ROBOTS),
  );
}
