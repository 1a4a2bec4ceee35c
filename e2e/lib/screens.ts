import type { Page, Request } from 'playwright-core';
import { inject } from './suite.js';
import { expect } from 'vitest';
import { axeViolations } from './axe.js';
import { photograph } from './photograph.js';

export const desk = { width: 1440, height: 900 };
export const phone390 = { width: 390, height: 844 };

/** The same person logged in twice: at a desk (1440 px) and on a phone (390 px). */
export type OfficePages = { desk: Page; phone: Page };

/** Until no loading mark (the Spinner's progressbar) is left: lists and forms have their data. */
export async function settled(page: Page): Promise<void> {
  await page.waitForFunction(() => document.querySelector('[role="progressbar"]') === null, undefined, {
    timeout: 10_000,
  });
}

/** What each page has asked the server for and not yet received (Playwright's request events). */
const pending = new WeakMap<Page, Set<Request>>();

function pendingOf(page: Page): Set<Request> {
  let requests = pending.get(page);
  if (!requests) {
    const open = new Set<Request>();
    page.on('request', (request) => open.add(request));
    page.on('requestfinished', (request) => open.delete(request));
    page.on('requestfailed', (request) => open.delete(request));
    pending.set(page, (requests = open));
  }
  return requests;
}

/**
 * Opens `path` as a screen of the app: with a page load the first time, and after that as the app moves
 * between its screens (a history entry and the popstate its router follows), without loading the app again.
 * A page load costs about five times the CPU of a move inside the app (0.47 against 0.10 s a screen), and
 * the screens test opens some ninety.
 */
export async function openScreen(page: Page, path: string): Promise<void> {
  pendingOf(page);
  if (new URL(page.url()).origin !== new URL(path, inject('baseURL')).origin) {
    await page.goto(path);
    return;
  }
  await page.evaluate((to) => {
    history.pushState(null, '', to);
    dispatchEvent(new PopStateEvent('popstate', { state: null }));
  }, path);
  // The router moves the address at once but draws the new screen in a transition, after its code and data:
  // until then the old screen is still there to be typed into (a comment sent to the previous talk).
  await quiet(page);
}

/** Until nothing asked of the server is still on its way and two frames have been drawn after that. */
async function quiet(page: Page): Promise<void> {
  const requests = pendingOf(page);
  for (let round = 0; round < 20; round++) {
    await expect.poll(() => requests.size, { timeout: 10_000 }).toBe(0);
    await page.evaluate(
      () => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))),
    );
    if (requests.size === 0) return;
  }
}

/**
 * Until the screen is drawn whole: nothing asked of the server still on its way (a lazy screen's or menu's
 * code, a list's data), two frames drawn after that (what arrived is on screen, and what it asks for next is
 * asked), and no loading mark left. A screen reached inside the app is not waited for by a page load.
 */
export async function drawnWhole(page: Page): Promise<void> {
  await quiet(page);
  await settled(page);
}

/**
 * Opens `path` (inside the app, or with `load` as a page load: a public page is a document of its own) and
 * waits until `ready` has found the screen's content and it is drawn whole.
 */
export async function openDrawn(
  page: Page,
  path: string,
  ready: (page: Page) => Promise<unknown>,
  { load = false }: { load?: boolean } = {},
): Promise<void> {
  if (load) await page.goto(path);
  else await openScreen(page, path);
  await ready(page);
  await drawnWhole(page);
}

/**
 * One back-office screen (product.md §2.8): axe finds nothing at 1440 px, and the screen is photographed at
 * 1440 and 390 px as e2e/screenshots/office-<name>-{1440,390}.png. `ready` waits for the screen's content.
 * With `visit`, both pages open `path` first (side by side); without it the desk page is already there, in
 * the state the calling test brought it to.
 */
export async function checkScreen(
  pages: OfficePages,
  path: string,
  name: string,
  ready: (page: Page) => Promise<unknown>,
  { visit = false }: { visit?: boolean } = {},
): Promise<void> {
  const open = (page: Page) => openDrawn(page, path, ready);
  await Promise.all([
    (async () => {
      if (visit) await open(pages.desk);
      // Soft: one run names every screen with a violation.
      expect.soft(await axeViolations(pages.desk), `axe on ${path}`).toEqual([]);
      await photograph(pages.desk, `office-${name}-1440.png`);
    })(),
    (async () => {
      await open(pages.phone);
      await photograph(pages.phone, `office-${name}-390.png`);
    })(),
  ]);
}

/**
 * Tabs through the whole page, at most `max` presses: every stop must show a focus ring (an outline or a
 * box-shadow on the element or the label around it), every control that can take focus must be reached
 * (a radio group counts once), and Tab must come back round (no trap). The problems, as lines.
 */
export async function keyboardProblems(page: Page, max = 120): Promise<string[]> {
  await page.evaluate(() => {
    // From the top of the page: a blur alone leaves the browser's starting point where the focus was (a button
    // just pressed, say), and the walk would start there and leave the page before the controls above it.
    const body = document.body;
    body.setAttribute('tabindex', '-1');
    body.focus();
    body.removeAttribute('tabindex');
    Object.assign(window, { tabbed: new Set(), first: undefined });
  });
  const problems: string[] = [];
  let started = false;
  let stops = 0;
  for (let press = 0; press < max; press += 1) {
    await page.keyboard.press('Tab');
    const stop = await page.evaluate(() => {
      const element = document.activeElement;
      if (!element || element === document.body) return null;
      const walk = window as unknown as { tabbed: Set<Element>; first?: Element };
      // Back at the first stop: round. (A date field keeps the focus for its parts: seen again, not round.)
      const round = walk.first === element;
      walk.first ??= element;
      const seen = walk.tabbed.has(element);
      walk.tabbed.add(element);
      const ring = (each: Element | null) => {
        if (!each) return false;
        const style = getComputedStyle(each);
        return (
          (style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) > 0) || style.boxShadow !== 'none'
        );
      };
      const name =
        element.getAttribute('aria-label') ??
        (element as HTMLElement).innerText?.trim().slice(0, 30) ??
        element.getAttribute('name') ??
        '';
      return {
        round,
        seen,
        what: `${element.tagName.toLowerCase()}${element.id ? `#${element.id}` : ''} "${name}"`,
        ring: ring(element) || ring(element.closest('label')) || ring(element.parentElement),
      };
    });
    // Focus left the page (to the browser's own controls): it comes back round on the next press.
    if (stop === null) {
      if (started) break;
      continue;
    }
    if (stop.round) break;
    started = true;
    if (stop.seen) continue;
    stops += 1;
    if (!stop.ring) problems.push(`no focus ring on ${stop.what}`);
    if (press === max - 1) problems.push(`Tab did not come back round within ${max} presses`);
  }
  const missed = await page.evaluate(() => {
    const { tabbed } = window as unknown as { tabbed: Set<Element> };
    const selector =
      'a[href], button:not([disabled]), input:not([disabled]):not([type="hidden"]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';
    const reachedRadio = new Set(
      [...tabbed]
        .filter((each) => each instanceof HTMLInputElement && each.type === 'radio')
        .map((each) => (each as HTMLInputElement).name),
    );
    return Array.from(document.querySelectorAll(selector))
      .filter((each) => each.getClientRects().length > 0 && !each.closest('[inert], [aria-hidden="true"]'))
      .filter(
        (each) => !(each instanceof HTMLInputElement && each.type === 'radio' && reachedRadio.has(each.name)),
      )
      .filter((each) => !tabbed.has(each))
      .map(
        (each) =>
          `not reached by Tab: ${each.tagName.toLowerCase()} "${(each as HTMLElement).innerText?.trim().slice(0, 30) || each.getAttribute('aria-label') || each.getAttribute('name') || ''}"`,
      );
  });
  if (stops < 2) problems.push(`Tab stopped at ${stops} controls only`);
  return [...problems, ...missed];
}
