import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { firstErrorMessage } from '@enishi/contract';
import { badRequest, unauthorized } from '../errors.js';
import type { Actor, SessionService } from '../services/session-service.js';
import { PRE_SESSION_BYTES, sessionBeforeBody } from './request-bodies.js';

export interface OpenCall<B> {
  body: B;
  request: FastifyRequest;
}

export interface SessionCall<B> extends OpenCall<B> {
  actor: Actor;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The contract schema of a call's body (read by the test that fuzzes every call). */
    contract?: z.ZodType;
  }
}

export interface CallOptions {
  /**
   * This call's own body limit, for calls that carry images (the app's default is 64 KB). Beyond: 413. Only
   * session calls may raise it, and then a body over 64 KB must begin with its `ssid` (request-bodies.ts).
   */
  bodyLimit?: number;
}

/** True when any string in the body holds U+0000, which PostgreSQL cannot store and would fail on. */
function hasNulCharacter(value: unknown): boolean {
  if (typeof value === 'string') return value.includes('\u0000');
  if (Array.isArray(value)) return value.some(hasNulCharacter);
  if (typeof value === 'object' && value !== null) {
    return Object.entries(value).some(([key, item]) => key.includes('\u0000') || hasNulCharacter(item));
  }
  return false;
}

/** Validates a body against its contract schema; the first issue's Japanese text becomes the 400. */
export function parseBody<S extends z.ZodType>(schema: S, body: unknown): z.output<S> {
  if (hasNulCharacter(body)) throw badRequest();
  const result = schema.safeParse(body);
  if (!result.success) throw badRequest(firstErrorMessage(result.error));
  return result.data;
}

function ssidOf(body: unknown): unknown {
  return typeof body === 'object' && body !== null ? (body as { ssid?: unknown }).ssid : undefined;
}

/**
 * The one way to declare an API call (`POST /api/<name>`, JSON in and out). A session call authenticates
 * first, so a caller without a valid session learns nothing about the body rules, then validates.
 */
export function apiCalls(app: FastifyInstance, sessions: SessionService) {
  return {
    session<S extends z.ZodType>(
      name: string,
      schema: S,
      handler: (call: SessionCall<z.output<S>>) => Promise<unknown>,
      options: CallOptions = {},
    ): void {
      const { bodyLimit } = options;
      const large = bodyLimit !== undefined && bodyLimit > PRE_SESSION_BYTES;
      const config = { contract: schema };
      const routeOptions = large
        ? { bodyLimit, config, preParsing: sessionBeforeBody(sessions) }
        : { bodyLimit, config };
      app.post(`/api/${name}`, routeOptions, async (request) => {
        const actor = await sessions.resolve(ssidOf(request.body));
        if (!actor) throw unauthorized();
        return handler({ body: parseBody(schema, request.body), actor, request });
      });
    },

    open<S extends z.ZodType>(
      name: string,
      schema: S,
      handler: (call: OpenCall<z.output<S>>) => Promise<unknown>,
    ): void {
      const config = { contract: schema };
      app.post(`/api/${name}`, { config }, async (request) =>
        handler({ body: parseBody(schema, request.body), request }),
      );
    },
  };
}
