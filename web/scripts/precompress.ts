import { readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import type { Plugin, ResolvedConfig } from 'vite';

/*
 * The build's scripts and stylesheets compressed once, at the strongest settings (product.md §2.7): brotli at
 * quality 11 (`<file>.br`) and gzip at level 9 (`<file>.gz`) beside each, which the server sends as they are to a
 * browser that takes them. A server compressing per request must pick a quick setting: React's chunk is 78 kB
 * at brotli 4, as the server made it, and 67 kB at 11.
 */

const brotli = promisify(brotliCompress);
const gzipped = promisify(gzip);

/** Smaller files are sent as they are (the server compresses from 1 KB on too). */
const MIN_BYTES = 1024;

/** The hashed scripts and stylesheets under `assets/`: the bulk of every first load, and never changed. */
const COMPRESSIBLE = /\.(js|css)$/;

export async function precompressAssets(assetsDir: string): Promise<void> {
  const files = (await readdir(assetsDir)).filter((name) => COMPRESSIBLE.test(name));
  for (const name of files) {
    const file = path.join(assetsDir, name);
    const source = await readFile(file);
    if (source.length < MIN_BYTES) continue;
    const [br, gz] = await Promise.all([
      brotli(source, {
        params: {
          [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
          [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
          [constants.BROTLI_PARAM_SIZE_HINT]: source.length,
        },
      }),
      gzipped(source, { level: 9 }),
    ]);
    await Promise.all([writeFile(`${file}.br`, br), writeFile(`${file}.gz`, gz)]);
  }
}

/** After every file is written (the prerendered pages and the service worker too): compresses `assets/`. */
export function precompress(): Plugin {
  let config: ResolvedConfig;
  return {
    name: 'enishi-precompress',
    apply: 'build',
    configResolved(resolved) {
      config = resolved;
    },
    async closeBundle() {
      if (config.build.ssr) return;
      await precompressAssets(path.resolve(config.root, config.build.outDir, config.build.assetsDir));
    },
  };
}
