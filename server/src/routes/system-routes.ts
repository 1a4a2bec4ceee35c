import type { FastifyInstance } from 'fastify';

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

export function systemRoutes(app: FastifyInstance): void {
  // Listening happens only after migrations and the owner check, so answering at all means ready.
  app.get('/healthz', { logLevel: 'warn' }, async () => ({ status: 'ok' }));

  app.get('/robots.txt', async (_request, reply) =>
    reply.type('text/plain; charset=utf-8').header('cache-control', 'public, max-age=86400').send(ROBOTS),
  );
}
