import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import {
  CALLS,
  firstErrorMessage,
  refusalStatus,
  type CallName,
  type CallResult,
  type Calls,
  type Permission,
  jaMember,
} from '@enishi/contract';
import { AppError, badRequest, forbidden, unauthorized } from '../errors.js';
import type { Actor, SessionService } from '../services/session-service.js';
import { hasUnstorableText } from '../lib/storable-text.js';
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
    /** The permission a session call needs (docs/permissions.md is generated from these); absent: open. */
    permission?: Permission;
  }
}

export interface CallOptions {
  /**
   * This call's own body limit, for calls that carry images (the app's default is 64 KB). Beyond: 413. Only
   * session calls may raise it, and then a body over 64 KB must begin with its `ssid` (request-bodies.ts).
   */
  bodyLimit?: number;
}

/** Validates a body against its contract schema; the first issue's Japanese text becomes the 400. */
export function parseBody<S extends z.ZodType>(schema: S, body: unknown): z.output<S> {
  if (hasUnstorableText(body)) throw badRequest();
  const result = schema.safeParse(body);
  if (!result.success) throw badRequest(firstErrorMessage(result.error));
  return result.data;
}

/**
 * While a staff member must set up a second factor (product.md §11.7), their session may only set one up or
 * log out; anything else is a 403 saying so.
 */
const mayCallDuringSetup = (name: CallName): boolean =>
  name.startsWith('2fa/') || name === 'logout' || name === 'reauth' || name === 'reauth/options';
const setupFirst = () => new AppError('forbidden', jaMember.security.errors.secondFactorSetupFirst);

function ssidOf(body: unknown): unknown {
  return typeof body === 'object' && body !== null ? (body as { ssid?: unknown }).ssid : undefined;
}

/**
 * The body of a call as its handler gets it: parsed by `CALLS[name].body` (TypeScript cannot follow a generic
 * name into the map's union of schemas, hence the one cast below).
 */
type ParsedBody<N extends CallName> = z.output<Calls[N]['body']>;

/**
 * The one way to declare an API call (`POST /api/<name>`, JSON in and out). The body schema and the reply
 * type come from the contract's call map by name. A session call names the permission it needs
 * (packages/contract/src/permissions.ts): it authenticates first (401), then checks that the actor's role
 * holds the permission (403), so a caller without either learns nothing about the body rules, then validates.
 * Whatever depends on the record a call is about (own vs. someone else's, a talk one is in) the service
 * decides with the same `can`.
 */
export function apiCalls(app: FastifyInstance, sessions: SessionService) {
  return {
    session<N extends CallName>(
      name: N,
      permission: Permission,
      handler: (call: SessionCall<ParsedBody<N>>) => Promise<CallResult<N>>,
      options: CallOptions = {},
    ): void {
      const schema = CALLS[name].body;
      const { bodyLimit } = options;
      const large = bodyLimit !== undefined && bodyLimit > PRE_SESSION_BYTES;
      const config = { contract: schema, permission };
      const routeOptions = large
        ? { bodyLimit, config, preParsing: sessionBeforeBody(sessions) }
        : { bodyLimit, config };
      app.post(`/api/${name}`, routeOptions, async (request) => {
        const actor = await sessions.resolve(ssidOf(request.body));
        const refusal = refusalStatus(actor, permission);
        if (!actor || refusal === 401) throw unauthorized();
        if (refusal === 403) throw forbidden();
        if (actor.secondFactorSetup && !mayCallDuringSetup(name)) throw setupFirst();
        return handler({ body: parseBody(schema, request.body) as ParsedBody<N>, actor, request });
      });
    },

    open<N extends CallName>(
      name: N,
      handler: (call: OpenCall<ParsedBody<N>>) => Promise<CallResult<N>>,
    ): void {
      const schema = CALLS[name].body;
      const config = { contract: schema };
      app.post(`/api/${name}`, { config }, async (request) =>
        handler({ body: parseBody(schema, request.body) as ParsedBody<N>, request }),
      );
    },
  };
}
