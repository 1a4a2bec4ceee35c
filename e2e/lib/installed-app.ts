import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext } from 'playwright-core';
import { inject } from './suite.js';
import { chromiumArgs, chromiumBuildPath, phone, type ChromiumBuild } from './chromium.js';

/**
 * A persistent profile of its own (`enishi-<name>-…`) with service workers allowed: the app added to a
 * phone's home screen, whose shell opens offline and whose worker shows pushes. On the test server unless
 * `baseURL` names another.
 */
export function launchInstalledApp(
  name: string,
  {
    build = 'shell',
    ...options
  }: {
    baseURL?: string;
    timezoneId?: string;
    serviceWorkers?: 'allow' | 'block';
    build?: ChromiumBuild;
  } = {},
): Promise<BrowserContext> {
  return chromium.launchPersistentContext(mkdtempSync(join(tmpdir(), `enishi-${name}-`)), {
    executablePath: chromiumBuildPath(build),
    args: chromiumArgs,
    baseURL: inject('baseURL'),
    viewport: phone,
    locale: 'ja-JP',
    ...options,
  });
}
