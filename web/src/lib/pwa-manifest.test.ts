// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { MANIFEST_AT_LATEST_MS, MANIFEST_PATH, linkManifestOnceDrawn } from './pwa';

/*
 * The member area's manifest link (product.md §2.7): its HTML has none, and the app links it once the first
 * screen shows nothing still loading, after that frame (e2e/tests/pwa.test.ts: in Chromium, over a talk).
 */

const manifests = () => [...document.querySelectorAll<HTMLLinkElement>('link[rel="manifest"]')];
/** A frame, as the browser paints it, and the task after it. */
const aFrame = async () => {
  await vi.advanceTimersByTimeAsync(20);
  await vi.advanceTimersByTimeAsync(0);
};

describe("the member area's manifest link (product.md §2.7)", () => {
  let root: HTMLElement;
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'requestAnimationFrame'] });
    document.head.innerHTML = '';
    document.body.innerHTML = '<div id="root"><div class="app-loading"></div></div>';
    root = document.getElementById('root')!;
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('links the manifest once the screen shows nothing still loading, after that frame, and once', async () => {
    linkManifestOnceDrawn(root);
    await aFrame();
    expect(manifests()).toEqual([]);
    // The talk drawn, its older messages still on their way: still loading.
    root.innerHTML = '<div role="log" aria-busy="true"></div>';
    await aFrame();
    expect(manifests()).toEqual([]);
    root.querySelector('[role="log"]')!.setAttribute('aria-busy', 'false');
    await vi.advanceTimersByTimeAsync(0);
    expect(manifests()).toEqual([]);
    await aFrame();
    expect(manifests().map((link) => link.getAttribute('href'))).toEqual([MANIFEST_PATH]);
    // Later screens do not link it again.
    root.innerHTML = '<div class="spinner"></div>';
    root.innerHTML = '<main></main>';
    await aFrame();
    expect(manifests()).toHaveLength(1);
  });

  it('links it at the latest a while after the app started, whatever the screen shows', async () => {
    linkManifestOnceDrawn(root);
    await vi.advanceTimersByTimeAsync(MANIFEST_AT_LATEST_MS - 1);
    expect(manifests()).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(manifests()).toHaveLength(1);
  });

  it('adds none to a page that has one (the public pages keep theirs in their HTML)', async () => {
    document.head.innerHTML = `<link rel="manifest" href="${MANIFEST_PATH}">`;
    root.innerHTML = '<main></main>';
    linkManifestOnceDrawn(root);
    await vi.advanceTimersByTimeAsync(MANIFEST_AT_LATEST_MS);
    expect(manifests()).toHaveLength(1);
  });
});
