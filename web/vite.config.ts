import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';
import { VitePWA } from 'vite-plugin-pwa';
import { ja } from '../packages/contract/src/ja.ts';
import { ENTRY_FILES, chunkGroups } from './scripts/chunk-groups.ts';
import { compactHolidays } from './scripts/compact-holidays.ts';
import { precompress } from './scripts/precompress.ts';
import { prerender } from './scripts/prerender.ts';

const api = 'http://127.0.0.1:8080';
const proxy = {
  '/api': { target: api, changeOrigin: false },
  '/media': { target: api, changeOrigin: false },
  '/ws': { target: api.replace('http', 'ws'), ws: true },
};

/**
 * react-router's package exports name only its development build (its dev-only warnings included): the app's
 * build takes the production one beside it. `vite dev` and the tests keep the warnings.
 */
function reactRouterProduction(): Plugin {
  // Wherever npm put the package: found as Node finds it, from this file.
  const dir = path.dirname(createRequire(import.meta.url).resolve('react-router/package.json'));
  const file = (name: string) => path.join(dir, 'dist/production', name);
  return {
    name: 'enishi-react-router-production',
    apply: 'build',
    config: () => ({
      resolve: {
        alias: [
          { find: /^react-router$/, replacement: file('index.mjs') },
          { find: /^react-router\/dom$/, replacement: file('dom-export.mjs') },
        ],
      },
    }),
  };
}

/** Brand colours, shared by the manifest and index.html (see src/styles/tokens.css). */
const navy = '#14213d';
const ivory = '#f7f2e7';

/** index.html takes its words from the catalogue too, so that all wording lives in one place. */
function catalogueHtml(): Plugin {
  const words: Record<string, string> = {
    '%APP_NAME%': ja.app.name,
    '%APP_SHORT_NAME%': ja.app.shortName,
    '%APP_DESCRIPTION%': ja.app.description,
    '%THEME_COLOR%': navy,
  };
  return {
    name: 'enishi-catalogue-html',
    transformIndexHtml: (html) => html.replace(/%[A-Z_]+%/g, (key) => words[key] ?? key),
  };
}

/** A talk's screen and its loader (the shells below). */
const talkShell = ['src/app/routes/talk.tsx', 'src/app/prefetch-talk.ts'];

export default defineConfig({
  resolve: {
    alias: {
      '@enishi/contract': fileURLToPath(new URL('../packages/contract/src/index.ts', import.meta.url)),
      '@': fileURLToPath(new URL('./src', import.meta.url)),
    },
  },
  plugins: [
    react(),
    catalogueHtml(),
    reactRouterProduction(),
    // The auto-reply's holiday table as dates only (product.md §4.9).
    compactHolidays(),
    // The public pages as HTML (product.md §2.7): before VitePWA's precache list, so they are precached too.
    prerender({
      pages: {
        '/enter': 'src/app/routes/enter.tsx',
        '/login': 'src/app/routes/login.tsx',
        '/intro/male': 'src/app/routes/intro.tsx',
        '/intro/female': 'src/app/routes/intro.tsx',
      },
      memberArea: ['src/app/member-area.tsx', 'src/app/guards.ts'],
      // A talk: the staff desk's (/talk/:id) and a member's with the desk (/talk/staff/:id), with the loader
      // that asks for its row and newest page; a member's also with what that loader loads before the first
      // drawing (the members' phrase table, the desk's auto-reply rule), with the entry rather than a round
      // trip after it ran.
      shells: {
        talk: talkShell,
        'talk/staff': [...talkShell, 'src/lib/phrases-member.ts', 'src/features/talk/utils/auto-reply.ts'],
      },
      early: { talk: 'src/early-talk.ts', 'talk/staff': 'src/early-talk.ts' },
    }),
    // Brotli and gzip copies of the scripts and stylesheets, made once at the strongest settings.
    precompress(),
    VitePWA({
      // The server's CSP allows no inline script: the app registers the worker itself (src/lib/pwa.ts).
      injectRegister: false,
      registerType: 'prompt',
      // Our own worker (src/sw.ts): the precached shell as before, and push notifications (product.md §16).
      strategies: 'injectManifest',
      srcDir: 'src',
      filename: 'sw.ts',
      includeAssets: ['icons/apple-touch-icon.png', 'icons/favicon-48.png'],
      manifest: {
        id: '/',
        name: ja.app.name,
        short_name: ja.app.shortName,
        description: ja.app.description,
        lang: 'ja',
        dir: 'ltr',
        start_url: '/',
        scope: '/',
        display: 'standalone',
        orientation: 'portrait',
        theme_color: navy,
        background_color: ivory,
        icons: [
          { src: '/icons/icon-192.png', sizes: '192x192', type: 'image/png', purpose: 'any' },
          { src: '/icons/icon-512.png', sizes: '512x512', type: 'image/png', purpose: 'any' },
          { src: '/icons/maskable-192.png', sizes: '192x192', type: 'image/png', purpose: 'maskable' },
          { src: '/icons/maskable-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
        ],
      },
      injectManifest: {
        globPatterns: ['**/*.{js,css,html,png,svg,webmanifest}'],
        // A member shell is index.html with more preloads; offline, index.html answers and the chunks are here.
        globIgnores: ['shells/**'],
      },
    }),
  ],
  server: { proxy },
  preview: { proxy },
  build: {
    // No source maps: the app's source is not for the public (the server refuses *.map as well).
    sourcemap: false,
    modulePreload: {
      polyfill: false,
      // What the entry imports (React, the router, the runtime, the public pieces) is in every page's head and
      // loaded before any screen is: a screen's list of files to fetch leaves it out (the pages keep it).
      resolveDependencies: (_file, deps, { hostType }) =>
        hostType === 'js' ? deps.filter((dep) => !ENTRY_FILES.test(dep)) : deps,
    },
    // CSS is split per chunk (Vite's default): a member's first load takes no staff screen's styles. The
    // prerendered pages and the member shells link their chunks' CSS in the head (scripts/prerender.ts).
    rolldownOptions: {
      // The contract's modules only declare schemas, words and pure functions: a screen gets just what it uses
      // (the auto-reply's holiday table, say, stays out of the first load).
      treeshake: {
        manualPureFunctions: ['z'],
        // The icon modules only declare components too: each chunk gets the icons its screens draw.
        moduleSideEffects: (id: string) =>
          /[\\/]packages[\\/]contract[\\/]src[\\/]|[\\/]components[\\/]ui[\\/]icons/.test(id)
            ? false
            : undefined,
      },
      // Libraries change less often than screens: long-cached vendor chunks. React and the router are all a
      // visitor's first load needs (product.md §2.7); the rest (the query cache, zod with the call schemas)
      // loads with the member area or when a public form is sent. Those only a talk needs (the holiday table
      // of the auto-reply, the virtualizer) load with the talk screen instead.
      output: {
        codeSplitting: {
          groups: chunkGroups,
        },
      },
    },
  },
});
