/**
 * The public pages prerendered to HTML at build time (product.md §2.7), each written as `<path>.html` (e.g.
 * `intro/male.html`); the build's page table (vite.config.ts) lists them with their screens. The server and
 * the service worker's precache serve that file for the path itself.
 */
export type PrerenderedPath = '/enter' | '/login' | '/intro/male' | '/intro/female';
