import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import helmet, { type HelmetOptions } from 'helmet';

/**
 * The Content-Security-Policy of the web app's pages and files. No inline script anywhere: the web app loads
 * only its own bundles, and the chat socket is the one other origin form it connects to.
 */
function contentSecurityDirectives(
  publicOrigin: string,
  imageOrigins: string[] = [],
  frameOrigins: string[] = [],
): Record<string, string[]> {
  const url = new URL(publicOrigin);
  const socketOrigin = `${url.protocol === 'https:' ? 'wss' : 'ws'}://${url.host}`;
  return {
    'default-src': ["'self'"],
    'script-src': ["'self'"],
    'style-src': ["'self'"],
    'img-src': ["'self'", 'data:', 'blob:', ...imageOrigins],
    'connect-src': ["'self'", socketOrigin],
    // Only the configured member site may be framed (/member, product.md §2.1); nothing else.
    'frame-src': frameOrigins.length > 0 ? frameOrigins : ["'none'"],
    'worker-src': ["'self'"],
    'manifest-src': ["'self'"],
    'object-src': ["'none'"],
    'base-uri': ["'self'"],
    // The member site's login form posts into its frame (product.md §19.9), so its origin may be a form action.
    'form-action': ["'self'", ...frameOrigins],
    'frame-ancestors': ["'none'"],
  };
}

/** Not one of helmet's: what the app may use of the device (the microphone for voice calls, product.md §17). */
const PERMISSIONS_POLICY = 'microphone=(self), camera=(), geolocation=()';

/**
 * The headers helmet's middleware sets for `options`, read once. Its values depend on nothing but the
 * options, so every reply can carry a copy instead of running helmet again (decision 030).
 */
function helmetHeaders(options: HelmetOptions): Record<string, string> {
  const headers: Record<string, string> = {};
  const response = {
    setHeader: (name: string, value: unknown) => {
      headers[name.toLowerCase()] = String(value);
    },
    removeHeader: (name: string) => {
      delete headers[name.toLowerCase()];
    },
  };
  helmet(options)({} as IncomingMessage, response as unknown as ServerResponse, (error?: unknown) => {
    if (error) throw error instanceof Error ? error : new Error(String(error));
  });
  return headers;
}

/**
 * The two sets of security headers (product.md §11.1), given PUBLIC_ORIGIN and what else pages may load.
 * `imageOrigins`: configured course images; `frameOrigins`: the framed member site, if one is configured. HSTS
 * only when users reach the app over https: over plain http it would be ignored at best.
 */
function securityHeaders(
  publicOrigin: string,
  imageOrigins: string[] = [],
  frameOrigins: string[] = [],
): { documents: Record<string, string>; api: Record<string, string> } {
  const strictTransportSecurity = publicOrigin.startsWith('https:')
    ? { maxAge: 31_536_000, includeSubDomains: true }
    : false;
  const documents = helmetHeaders({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: contentSecurityDirectives(publicOrigin, imageOrigins, frameOrigins),
    },
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
    xFrameOptions: { action: 'deny' },
    crossOriginOpenerPolicy: { policy: 'same-origin' },
    crossOriginResourcePolicy: { policy: 'same-origin' },
    crossOriginEmbedderPolicy: false,
    strictTransportSecurity,
  });
  // An API reply is JSON that no page runs or frames: the headers that guard a JSON reply (OWASP's REST set),
  // a policy that allows nothing, and no cache. The pages' own headers (opener, permissions, DNS prefetch and
  // the like) mean nothing to it and would only lengthen every call's reply.
  const api = helmetHeaders({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: { 'default-src': ["'none'"], 'frame-ancestors': ["'none'"] },
    },
    xFrameOptions: { action: 'deny' },
    crossOriginResourcePolicy: { policy: 'same-origin' },
    strictTransportSecurity,
    referrerPolicy: false,
    crossOriginOpenerPolicy: false,
    crossOriginEmbedderPolicy: false,
    originAgentCluster: false,
    xDnsPrefetchControl: false,
    xDownloadOptions: false,
    xPermittedCrossDomainPolicies: false,
    xXssProtection: false,
  });
  return {
    documents: { ...documents, 'permissions-policy': PERMISSIONS_POLICY },
    // Replies of the API carry personal data: no shared or browser cache may keep them.
    api: { ...api, 'cache-control': 'no-store' },
  };
}

/**
 * Every reply, errors and 404s included, carries its set (product.md §11.1): the API's under `/api/`, the
 * pages' everywhere else. Set when the request arrives, so a reply that fails later keeps them.
 */
export function installSecurityHeaders(
  app: FastifyInstance,
  publicOrigin: string,
  imageOrigins: string[] = [],
  frameOrigins: string[] = [],
): void {
  const { documents, api } = securityHeaders(publicOrigin, imageOrigins, frameOrigins);
  app.addHook('onRequest', (request, reply, done) => {
    reply.headers(request.url.startsWith('/api/') ? api : documents);
    done();
  });
}
