import type { FastifyInstance } from 'fastify';

/**
 * The Content-Security-Policy of every response. No inline script anywhere: the web app loads only its own
 * bundles, and the chat socket is the one other origin form it connects to.
 */
export function contentSecurityPolicy(
  publicOrigin: string,
  imageOrigins: string[] = [],
  frameOrigins: string[] = [],
): string {
  const url = new URL(publicOrigin);
  const socketOrigin = `${url.protocol === 'https:' ? 'wss' : 'ws'}://${url.host}`;
  return [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    ["img-src 'self' data: blob:", ...imageOrigins].join(' '),
    `connect-src 'self' ${socketOrigin}`,
    // Only the configured member site may be framed (/member, product.md §2.1); nothing else.
    `frame-src ${frameOrigins.length > 0 ? frameOrigins.join(' ') : "'none'"}`,
    "worker-src 'self'",
    "manifest-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    // The member site's login form posts into its frame (product.md §19.9), so its origin may be a form action.
    ["form-action 'self'", ...frameOrigins].join(' '),
    "frame-ancestors 'none'",
  ].join('; ');
}

export function securityHeaders(
  publicOrigin: string,
  imageOrigins: string[] = [],
  frameOrigins: string[] = [],
): Record<string, string> {
  const headers: Record<string, string> = {
    'content-security-policy': contentSecurityPolicy(publicOrigin, imageOrigins, frameOrigins),
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'strict-origin-when-cross-origin',
    'x-frame-options': 'DENY',
    'permissions-policy': 'microphone=(self), camera=(), geolocation=()',
    'cross-origin-opener-policy': 'same-origin',
    'cross-origin-resource-policy': 'same-origin',
  };
  // HSTS over plain http would be ignored at best; sent only when users reach the app over https.
  if (publicOrigin.startsWith('https:')) {
    headers['strict-transport-security'] = 'max-age=31536000; includeSubDomains';
  }
  return headers;
}

/**
 * `imageOrigins`: other origins images may load from (configured course images); `frameOrigins`: the origin
 * of the framed member site, if one is configured.
 */
export function installSecurityHeaders(
  app: FastifyInstance,
  publicOrigin: string,
  imageOrigins: string[] = [],
  frameOrigins: string[] = [],
): void {
  const headers = securityHeaders(publicOrigin, imageOrigins, frameOrigins);
  // onSend runs for every reply, errors and 404s included.
  app.addHook('onSend', async (request, reply, payload) => {
    reply.headers(headers);
    // Replies of the API carry personal data: no shared or browser cache may keep them.
    if (request.url.startsWith('/api/')) reply.header('cache-control', 'no-store');
    return payload;
  });
}
