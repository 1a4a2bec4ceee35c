/**
 * Renders the app icons (web/public/icons/*.png) from HTML in headless Chromium, so they use the same
 * brand as the app: the character 縁 in gold on deep navy. Run after changing the design:
 *   npm run icons -w @enishi/web      (needs Chromium at $CHROMIUM or /usr/bin/chromium)
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import sharp from 'sharp';

const out = fileURLToPath(new URL('../public/icons/', import.meta.url));

const navy = '#14213d';
const navyLight = '#22365f';
const gold = '#dcc28a';
const goldLine = 'rgba(200, 166, 99, 0.9)';

type Kind = 'any' | 'maskable' | 'apple' | 'favicon' | 'badge';
const icons: Array<{ file: string; size: number; kind: Kind }> = [
  { file: 'icon-192.png', size: 192, kind: 'any' },
  { file: 'icon-512.png', size: 512, kind: 'any' },
  { file: 'maskable-192.png', size: 192, kind: 'maskable' },
  { file: 'maskable-512.png', size: 512, kind: 'maskable' },
  { file: 'apple-touch-icon.png', size: 180, kind: 'apple' },
  { file: 'favicon-48.png', size: 48, kind: 'favicon' },
  { file: 'badge-96.png', size: 96, kind: 'badge' },
];

/** The notification badge (Android's status bar): only its shape counts, so white 縁 on nothing. */
function badgeHtml(size: number): string {
  return `<!doctype html><html><head><meta charset="utf-8"><style>
    html, body { margin: 0; background: transparent; }
    .icon { width: ${size}px; height: ${size}px; display: grid; place-items: center; }
    .glyph { color: #fff; font: 700 ${size * 0.84}px/1 'Noto Serif CJK JP', 'Hiragino Mincho ProN', serif; }
  </style></head><body><div class="icon"><span class="glyph">縁</span></div></body></html>`;
}

function html(size: number, kind: Kind): string {
  if (kind === 'badge') return badgeHtml(size);
  // How much of the square the emblem (ring and character) may use: maskable icons keep to the safe zone.
  const emblem = { any: 0.74, maskable: 0.58, apple: 0.7, favicon: 1 }[kind] * size;
  const corner = kind === 'any' ? size * 0.22 : kind === 'favicon' ? size / 2 : 0;
  const ring = kind === 'favicon' ? '' : `<div class="ring"></div><div class="ring inner"></div>`;
  const glyph = kind === 'favicon' ? size * 0.66 : emblem * 0.56;
  return `<!doctype html><html><head><meta charset="utf-8"><style>
    html, body { margin: 0; background: transparent; }
    .icon { position: relative; width: ${size}px; height: ${size}px; border-radius: ${corner}px; overflow: hidden;
      background: radial-gradient(circle at 50% 38%, ${navyLight}, ${navy} 72%); display: grid; place-items: center; }
    .ring { position: absolute; width: ${emblem}px; height: ${emblem}px; border-radius: 50%;
      border: ${Math.max(1, size / 170)}px solid ${goldLine}; box-sizing: border-box; }
    .ring.inner { width: ${emblem * 0.88}px; height: ${emblem * 0.88}px; border-width: ${Math.max(1, size / 340)}px;
      opacity: 0.6; }
    .glyph { position: relative; color: ${gold}; font: 700 ${glyph}px/1 'Noto Serif CJK JP', 'Hiragino Mincho ProN', serif;
      transform: translateY(${-glyph * 0.02}px); }
  </style></head><body><div class="icon">${ring}<span class="glyph">縁</span></div></body></html>`;
}

const profile = mkdtempSync(join(tmpdir(), 'enishi-icons-'));
const browser = await chromium.launchPersistentContext(profile, {
  executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'],
  deviceScaleFactor: 1,
});
try {
  const page = await browser.newPage();
  for (const { file, size, kind } of icons) {
    await page.setViewportSize({ width: size, height: size });
    await page.setContent(html(size, kind));
    await page.evaluate(() => document.fonts.ready);
    const shot = await page.locator('.icon').screenshot({ omitBackground: true });
    // A palette of 256 colours with dithering: the same icon to the eye at a quarter to a half of the bytes
    // (a phone fetches them on first load and when the app is installed).
    await sharp(shot)
      .png({ palette: true, quality: 95, dither: 1, compressionLevel: 9, effort: 10 })
      .toFile(join(out, file));
    process.stdout.write(`wrote ${file}\n`);
  }
} finally {
  await browser.close();
  rmSync(profile, { recursive: true, force: true });
}
