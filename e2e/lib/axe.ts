import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

type Violation = { id: string; impact: string | null; help: string; nodes: { target: string[] }[] };

/**
 * axe-core (from npm) injected into the page and run on the whole document: the violations, each with the
 * elements it found, as short lines a failing test can print.
 */
export async function axeViolations(page: Page, options: { alsoRules?: string[] } = {}): Promise<string[]> {
  // A dialog fading in is half transparent, and axe would measure its colours mid-fade: wait for every
  // animation that ends (a spinner never does).
  await page.evaluate(() =>
    Promise.all(
      document
        .getAnimations()
        .filter((animation) => animation.effect?.getTiming().iterations !== Infinity)
        .map((animation) => animation.finished.catch(() => undefined)),
    ),
  );
  // Evaluated over DevTools, so the app's CSP (script-src 'self') does not stop it.
  await page.evaluate(axeSource);
  // `alsoRules`: rules axe leaves off by default (experimental ones, such as label-content-name-mismatch).
  const rules = Object.fromEntries((options.alsoRules ?? []).map((rule) => [rule, { enabled: true }]));
  const violations = await page.evaluate(async (enabled) => {
    const axe = (
      window as unknown as {
        axe: { run: (context: Document, options: object) => Promise<{ violations: unknown[] }> };
      }
    ).axe;
    return (await axe.run(document, { rules: enabled })).violations;
  }, rules);
  return (violations as Violation[]).map(
    (each) =>
      `${each.id} (${each.impact}): ${each.help} — ${each.nodes.map((node) => node.target.join(' ')).join(', ')}`,
  );
}
