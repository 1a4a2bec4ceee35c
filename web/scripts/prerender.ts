import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import react from '@vitejs/plugin-react';
import { createServer, type Plugin, type ResolvedConfig, type Rollup } from 'vite';
import type { PrerenderedPath } from '../src/app/prerendered-paths.ts';

/*
 * Prerendering the public pages (product.md §2.7). After the client build has written its files and before
 * the service worker's precache list is made (so the pages are precached too), each page is rendered with
 * react-dom/server through Vite's SSR loader and written as `<path>.html`: index.html with the page's markup
 * in #root, its title, the address it was rendered for (a JSON block the app checks before it hydrates), and
 * the page's own chunk, the chunks it imports and its CSS linked in the head, so the words paint before any
 * script runs and hydration waits for no further round trip.
 */

/** What src/app/prerender.tsx renders for a page (its HTML, tab title and the address it was rendered for). */
type Prerendered = { html: string; title: string; hydration: unknown };

type Options = {
  /** Each path with the module of its screen, as the client bundle names it (`src/app/routes/enter.tsx`). */
  pages: Record<PrerenderedPath, string>;
  /**
   * Modules every other path (index.html: the member area) needs before its first screen: their chunks are
   * linked in index.html's head, so they load with the entry instead of after it ran.
   */
  memberArea: string[];
  /**
   * Shells of the member area's deeper screens: `shells/<path>.html` is index.html with the chunks of the
   * screen's modules (its screen and its loader) linked as well, and the server answers every path under
   * `/<path>/` with the longest such shell (a talk's screen then loads with the entry rather than after it
   * ran). The service worker still answers with index.html, whose chunks it holds already.
   */
  shells: Record<string, string[]>;
  /**
   * A shell's first script (`early-talk.ts`): built as a chunk of its own with nothing to wait for, and run
   * before the app's scripts have arrived (it starts the screen's first calls, lib/early-calls.ts).
   */
  early?: Record<string, string>;
};

const escapeHtml = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
/** JSON inside <script>: no `</script>` or `<!--` can end it early. */
const scriptJson = (value: unknown) => JSON.stringify(value).replace(/</g, '\\u003c');

/** vite-plugin-pwa's manifest link, as it writes it into index.html. */
const MANIFEST_LINK = /\s*<link rel="manifest" href="\/manifest\.webmanifest">/;

/** Output files by kind: chunks and stylesheets. */
type ChunkFiles = { js: Set<string>; css: Set<string> };

/** A chunk and every chunk it imports statically, with their CSS (what loading it would fetch at once). */
function closure(bundle: Rollup.OutputBundle, start: Rollup.OutputChunk): ChunkFiles {
  const js = new Set<string>();
  const css = new Set<string>();
  const visit = (fileName: string) => {
    const chunk = bundle[fileName];
    if (!chunk || chunk.type !== 'chunk' || js.has(fileName)) return;
    js.add(fileName);
    chunk.viteMetadata?.importedCss.forEach((file) => css.add(file));
    chunk.imports.forEach(visit);
  };
  visit(start.fileName);
  return { js, css };
}

/**
 * index.html, for every other path (the member area): the loading screen painted before any script
 * runs, and the member area's chunks linked in the head, so they load with the entry, not after it ran.
 */
async function writeMemberShell(
  bundle: Rollup.OutputBundle,
  eager: ChunkFiles,
  { memberArea, shells, early = {} }: Pick<Options, 'memberArea' | 'shells' | 'early'>,
  dir: string,
  shell: string,
) {
  const file = path.join(dir, 'index.html');
  const member = { js: new Set<string>(), css: new Set<string>() };
  for (const module of memberArea) {
    const { js, css } = closure(bundle, chunkOf(bundle, module));
    js.forEach((chunk) => eager.js.has(chunk) || member.js.add(chunk));
    css.forEach((file) => eager.css.has(file) || member.css.add(file));
  }
  const built = await readFile(file, 'utf8');
  // The member area links the manifest once its first screen has drawn (lib/pwa.ts, linkManifestOnceDrawn).
  if (!MANIFEST_LINK.test(built)) throw new Error('index.html has no manifest link to move');
  const html = withPreloads(built.replace(MANIFEST_LINK, ''), member).replace(
    '<div id="root"></div>',
    `<div id="root">${shell}</div>`,
  );
  if (!html.includes(shell)) throw new Error('index.html has no empty <div id="root"></div>');
  await writeFile(file, html);
  await mkdir(path.join(dir, 'shells'), { recursive: true });
  for (const [segment, modules] of Object.entries(shells)) {
    const own = modules.map((module) => closure(bundle, chunkOf(bundle, module)));
    // Each file once, and none that index.html links already.
    const beyond = (files: string[], ...linked: Set<string>[]) =>
      [...new Set(files)].filter((file) => !linked.some((set) => set.has(file)));
    const preload = {
      js: beyond(
        own.flatMap(({ js }) => [...js]),
        eager.js,
        member.js,
      ),
      css: beyond(
        own.flatMap(({ css }) => [...css]),
        eager.css,
        member.css,
      ),
    };
    const first = early[segment];
    const withFirst = first
      ? html.replace(
          /<meta charset="UTF-8" \/>/i,
          `$&\n    <script type="module" async crossorigin src="/${chunkOf(bundle, first).fileName}"></script>`,
        )
      : html;
    const shellFile = path.join(dir, 'shells', `${segment}.html`);
    await mkdir(path.dirname(shellFile), { recursive: true });
    await writeFile(shellFile, withPreloads(withFirst, preload));
  }
}

function pageHtml(template: string, page: Prerendered, preload: string[], styles: string[]): string {
  const links = [
    ...styles.map((file) => `<link rel="stylesheet" crossorigin href="/${file}">`),
    ...preload.map((file) => `<link rel="modulepreload" crossorigin href="/${file}">`),
  ].join('\n    ');
  const data = `<script type="application/json" id="hydration-data">${scriptJson(page.hydration)}</script>`;
  const html = template
    .replace(/<title>[^<]*<\/title>/, `<title>${escapeHtml(page.title)}</title>`)
    .replace('</head>', `  ${links}\n  </head>`)
    .replace('<div id="root"></div>', `<div id="root">${page.html}</div>\n    ${data}`);
  if (!html.includes(page.html)) throw new Error('index.html has no empty <div id="root"></div>');
  return html;
}

export function prerender({ pages, memberArea, shells, early = {} }: Options): Plugin {
  let config: ResolvedConfig;
  const firstScripts = [...new Set(Object.values(early))];
  return {
    name: 'enishi-prerender',
    apply: 'build',
    configResolved(resolved) {
      config = resolved;
    },
    buildStart() {
      if (config.build.ssr) return;
      for (const module of firstScripts)
        this.emitFile({ type: 'chunk', id: path.resolve(config.root, module), preserveSignature: false });
    },
    async writeBundle(output, bundle) {
      if (config.build.ssr) return;
      const index = bundle['index.html'];
      const entry = Object.values(bundle).find(
        (file) =>
          file.type === 'chunk' &&
          file.isEntry &&
          !firstScripts.some((module) => file.facadeModuleId?.endsWith(`/${module}`)),
      );
      if (index?.type !== 'asset' || entry?.type !== 'chunk') throw new Error('no index.html or entry chunk');
      const eager = closure(bundle, entry);
      const server = await createServer({
        configFile: false,
        root: config.root,
        logLevel: 'error',
        resolve: { alias: config.resolve.alias },
        plugins: [react()],
        server: { middlewareMode: true, hmr: false, ws: false },
        appType: 'custom',
      });
      try {
        const { render, renderShell } = (await server.ssrLoadModule('/src/app/prerender.tsx')) as {
          render: (page: PrerenderedPath) => Promise<Prerendered>;
          renderShell: () => string;
        };
        for (const [page, screen] of Object.entries(pages) as [PrerenderedPath, string][]) {
          const own = closure(bundle, chunkOf(bundle, screen));
          const preload = [...own.js].filter((file) => !eager.js.has(file));
          const styles = [...own.css].filter((file) => !eager.css.has(file));
          const file = path.join(output.dir ?? config.build.outDir, `${page.slice(1)}.html`);
          await mkdir(path.dirname(file), { recursive: true });
          await writeFile(file, pageHtml(String(index.source), await render(page), preload, styles));
        }
        // Last, so that the public pages above were made from index.html as it was built.
        await writeMemberShell(
          bundle,
          eager,
          { memberArea, shells, early },
          output.dir ?? config.build.outDir,
          renderShell(),
        );
      } finally {
        await server.close();
      }
    },
  };
}

/**
 * `html` with the stylesheets of `css` and modulepreload links of `js` at the end of its head: a screen's CSS
 * comes with its chunks (the build splits it per chunk), so the screen paints styled at once.
 */
const withPreloads = (html: string, { js, css }: { js: Iterable<string>; css: Iterable<string> }) =>
  html.replace(
    '</head>',
    `  ${[
      ...[...css].map((file) => `<link rel="stylesheet" crossorigin href="/${file}">`),
      ...[...js].map((chunk) => `<link rel="modulepreload" crossorigin href="/${chunk}">`),
    ].join('\n    ')}\n  </head>`,
  );

function chunkOf(bundle: Rollup.OutputBundle, module: string): Rollup.OutputChunk {
  const chunks = Object.values(bundle).filter((file): file is Rollup.OutputChunk => file.type === 'chunk');
  // A module of a named group (vite.config.ts) is in that group's chunk, not in a chunk of its own.
  const chunk =
    chunks.find((file) => !!file.facadeModuleId?.endsWith(`/${module}`)) ??
    chunks.find((file) => file.moduleIds.some((id) => id.endsWith(`/${module}`)));
  if (!chunk) throw new Error(`no chunk for ${module}`);
  return chunk;
}
