import type { FastifyInstance } from 'fastify';

const ROBOTS = 'User-agent: *\nDisallow: /\n';

export function systemRoutes(app: FastifyInstance): void {
  // Listening happens only after migrations and the owner check, so answering at all means ready.
  app.get('/healthz', { logLevel: 'warn' }, async () => ({ status: 'ok' }));

  // A members-only club: nothing here is for search engines.
  app.get('/robots.txt', async (_request, reply) =>
    reply.type('text/plain; charset=utf-8').header('cache-control', 'public, max-age=86400').send(ROBOTS),
  );
}
