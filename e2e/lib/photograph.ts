import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from './server.js';

/** Where the suite's photographs of the screens land, for people to look at (not committed). */
export const screenshots = join(repoRoot, 'e2e/screenshots');

/**
 * Whether the suite photographs its screens. Nothing asserts on these photographs; they are for a developer to
 * look at after `npm test`. A CI run's clone is thrown away with them, so CI (CI=true) takes none: they were
 * about a sixth of a screen test's CPU. E2E_SCREENSHOTS=1 takes them in CI too, E2E_SCREENSHOTS=0 skips them.
 */
export const photographing =
  process.env.E2E_SCREENSHOTS === undefined ? process.env.CI !== 'true' : process.env.E2E_SCREENSHOTS === '1';

/** A Playwright page, or a WebKit session over WebDriver (lib/webkit.ts). */
type Camera = { screenshot(options?: { fullPage?: boolean }): Promise<Buffer> };

/** A photograph of what `camera` shows, as e2e/screenshots/<name> (when the suite photographs at all). */
export async function photograph(camera: Camera, name: string, options: { fullPage?: boolean } = {}) {
  if (photographing) writeFileSync(join(screenshots, name), await camera.screenshot(options));
}
