import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ja } from '@enishi/contract';

const IMMUTABLE = 'public, max-age=31536000, immutable';
const REVALIDATE = 'no-cache';

/** Paths the web app's router never owns: a miss there is a plain 404, never index.html. */
function isServerPath(url: string): boolean {
  return /^\/(api|ws|media|healthz|readyz|metrics)(\/|\?|$)/.test(url);
}

/** A missing hashed asset or file (a name with an extension) must fail loudly, not turn into HTML. */
function looksLikeFile(url: string): boolean {
  const pathname = url.split('?')[0] ?? '';
  return pathname.startsWith('/assets/') || /\.[A-Za-z0-9]+$/.test(pathname);
}

const PLACEHOLDER = `<!doctype html><html lang="ja"><head><meta charset="utf-8"><title>${ja.app.name}</title></head><body><p>${ja.app.placeholder}</p></body></html>`;

/**
 * The build's HTML files, read once at start-up (product.md §2.7). A prerendered public page answers its path:
 * `enter.html` `/enter`, `intro/male.html` `/intro/male`. A member shell answers every path under its path:
 * `shells/talk.html` `/talk/…`, index.html with the chunks of that screen linked as well; the longest shell
 * answers (`shells/talk/staff.html` `/talk/staff/…`).
 */
function htmlFiles(webDist: string): { pages: Map<string, string>; shells: Map<string, string> } {
  const pages = new Map<string, string>();
  const shells = new Map<string, string>();
  const files = readdirSync(webDist, { recursive: true, encoding: 'utf8' });
  for (const file of files) {
    const relative = file.split(path.sep).join('/');
    if (!relative.endsWith('.html') || relative === 'index.html' || relative.startsWith('assets/')) continue;
    const name = relative.slice(0, -'.html'.length);
    if (name.startsWith('shells/')) shells.set(name.slice('shells/'.length), relative);
    else pages.set(`/${name}`, relative);
  }
  return { pages, shells };
}

/**
 * Serves the built web app from WEB_DIST. Hashed files under /assets/ are cached for a year, and their
 * precompressed copies are sent where the browser takes them (product.md §2.7); everything
 * else (index.html, sw.js, the manifest) is revalidated on each load so an update reaches users at once.
 * A prerendered public page is served for its path, a member shell for the paths under its own; any other
 * GET falls back to index.html, where the web app's router takes over.
 */
export async function installWebApp(app: FastifyInstance, webDist: string): Promise<void> {
  const available = existsSync(path.join(webDist, 'index.html'));
  const { pages, shells } = available
    ? htmlFiles(webDist)
    : { pages: new Map<string, string>(), shells: new Map<string, string>() };
  const shellFor = (pathname: string) => {
    const segments = pathname.split('/').slice(1);
    // Under a shell's path, not the path itself: the longest first.
    for (let length = segments.length - 1; length > 0; length--) {
      const shell = shells.get(segments.slice(0, length).join('/'));
      if (shell) return shell;
    }
    return undefined;
  };
  if (available) {
    await app.register(fastifyStatic, {
      root: webDist,
      wildcard: true,
      index: ['index.html'],
      redirect: false,
      dotfiles: 'ignore',
      // The build's brotli and gzip files beside each script and stylesheet (web/scripts/precompress.ts), made at
      // the strongest settings once: sent as they are to a browser that takes them, the rest compressed per request.
      preCompressed: true,
      // The build makes no source maps; one left in WEB_DIST would hand out the source all the same.
      allowedPath: (pathName) => !pathName.endsWith('.map'),
      cacheControl: false,
      setHeaders(res, filePath) {
        const relative = path.relative(webDist, filePath).split(path.sep).join('/');
        const asset = relative.startsWith('assets/');
        res.setHeader('cache-control', asset ? IMMUTABLE : REVALIDATE);
        // A precompressed copy depends on what the browser takes: a cache between must key on it too.
        if (asset) res.setHeader('vary', 'accept-encoding');
      },
    });
  } else {
    app.log.warn(
      { webDist },
      'The web app is not built (no index.html in WEB_DIST); only the API is served.',
    );
  }

  const notFound = (reply: FastifyReply) => reply.code(404).send({ error: ja.errors.notFound });
  app.setNotFoundHandler((request: FastifyRequest, reply: FastifyReply) => {
    const pathname = (request.url.split('?')[0] ?? '').replace(/(.)\/$/, '$1');
    // A prerendered form sent by the browser itself (no script ran) comes back to its page, never a JSON 404.
    if (request.method === 'POST' && pages.has(pathname)) return reply.redirect(pathname, 303);
    const isPage = (request.method === 'GET' || request.method === 'HEAD') && !isServerPath(request.url);
    if (!isPage || looksLikeFile(request.url)) return notFound(reply);
    if (!available) return reply.code(404).type('text/html; charset=utf-8').send(PLACEHOLDER);
    const page = pages.get(pathname) ?? shellFor(pathname);
    return reply.header('cache-control', REVALIDATE).sendFile(page ?? 'index.html');
  });
}
