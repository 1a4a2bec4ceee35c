import { ja } from '@enishi/contract';
import type { BrowserContext, Page } from 'playwright-core';

/**
 * /enter in a new page of `context` (service workers allowed), once the app's worker controls it: the first
 * visit installs the worker and is not controlled; the reload after the worker has activated is.
 */
export async function controlledPage(context: BrowserContext): Promise<Page> {
  const page = await context.newPage();
  await page.goto('/enter');
  await page.getByRole('link', { name: ja.enter.login }).waitFor();
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
  });
  await page.reload();
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null);
  return page;
}
