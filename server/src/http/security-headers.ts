import helmet from '@fastify/helmet';
import type { FastifyInstance } from 'fastify';

/**
 * The Content-Security-Policy of every response. No inline script anywhere: the web app loads only its own
 * bundles, and the chat socket is the one other origin form it connects to.
 */
export function contentSecurityDirectives(
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
 * The security headers of every reply, errors and 404s included (product.md §11.5), sent by @fastify/helmet.
 * `imageOrigins`: other origins images may load from (configured course images); `frameOrigins`: the origin
 * of the framed member site, if one is configured. HSTS only when users reach the app over https: over
 * plain http it would be ignored at best.
 */
export async function installSecurityHeaders(
  app: FastifyInstance,
  publicOrigin: string,
  imageOrigins: string[] = [],
  frameOrigins: string[] = [],
): Promise<void> {
  await app.register(helmet, {
    contentSecurityPolicy: {
      useDefaults: false,
      directives: contentSecurityDirectives(publicOrigin, imageOrigins, frameOrigins),
    },
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
    xFrameOptions: { action: 'deny' },
    crossOriginOpenerPolicy: { policy: 'same-origin' },
    crossOriginResourcePolicy: { policy: 'same-origin' },
    crossOriginEmbedderPolicy: false,
    strictTransportSecurity: publicOrigin.startsWith('https:')
      ? { maxAge: 31_536_000, includeSubDomains: true }
      : false,
  });
  // onSend runs for every reply, errors and 404s included.
  app.addHook('onSend', async (request, reply, payload) => {
    reply.header('permissions-policy', PERMISSIONS_POLICY);
    // Replies of the API carry personal data: no shared or browser cache may keep them.
    if (request.url.startsWith('/api/')) reply.header('cache-control', 'no-store');
    return payload;
  });
}
