import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { Database } from '../db/client.js';

/**
 * GET /readyz (a minimal stand-in; the full one, with Redis and migrations, is product.md §10's): 200 while
 * the database answers, 503 otherwise, so that a balancer (deploy/haproxy.cfg) stops sending it people.
 */
export function readinessRoutes(app: FastifyInstance, db: Database): void {
  app.get('/readyz', { logLevel: 'warn' }, async (_request, reply) => {
    try {
      await db.execute(sql`select 1`);
      return { status: 'ready' };
    } catch {
      return reply.code(503).send({ status: 'unavailable' });
    }
  });
}
