// @vitest-environment jsdom
import { LIMITS } from '@enishi/contract';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

/*
 * Which new versions a running app offers (product.md §2.5). The browser's service worker objects stand in as
 * event targets: the order of their events is what this decides on, and a real browser cannot be made to send
 * them in a chosen order (e2e/tests/pwa-update.test.ts deploys a real new version under a page).
 */

class Worker extends EventTarget {
  constructor(public state: ServiceWorkerState) {
    super();
  }
  become(state: ServiceWorkerState): void {
    this.state = state;
    this.dispatchEvent(new Event('statechange'));
  }
}

class Registration extends EventTarget {
  installing: Worker | null = null;
  waiting: Worker | null = null;
  update = vi.fn(async () => undefined);
}

/** A fresh copy of lib/pwa.ts (it keeps what it offered) watching `registration`, in a page a worker controls. */
async function watching(registration: Registration) {
  vi.resetModules();
  const pwa = await import('./pwa');
  pwa.watchForUpdates(registration as unknown as ServiceWorkerRegistration);
  return pwa;
}

describe('the update offer (product.md §2.5)', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    Object.defineProperty(navigator, 'serviceWorker', { value: { controller: {} }, configurable: true });
  });
  afterEach(() => {
    vi.useRealTimers();
    Reflect.deleteProperty(navigator, 'serviceWorker');
  });

  it('offers a version that installs later, once it has installed', async () => {
    const registration = new Registration();
    const pwa = await watching(registration);
    const next = new Worker('installing');
    registration.installing = next;
    registration.dispatchEvent(new Event('updatefound'));
    expect(pwa.isUpdatePending()).toBe(false);
    next.become('installed');
    expect(pwa.isUpdatePending()).toBe(true);
  });

  it('offers a version that was already installing when the app started watching', async () => {
    const registration = new Registration();
    const next = new Worker('installing');
    registration.installing = next;
    const pwa = await watching(registration);
    next.become('installed');
    expect(pwa.isUpdatePending()).toBe(true);
  });

  it('offers a version found waiting at its next look, though no event told of it', async () => {
    const registration = new Registration();
    const pwa = await watching(registration);
    registration.waiting = new Worker('installed');
    expect(pwa.isUpdatePending()).toBe(false);
    await vi.advanceTimersByTimeAsync(LIMITS.swUpdateCheckMs);
    expect(pwa.isUpdatePending()).toBe(true);
  });

  it('does not offer the very first version, which no other version controlled the page before', async () => {
    Object.defineProperty(navigator, 'serviceWorker', { value: { controller: null }, configurable: true });
    const registration = new Registration();
    const first = new Worker('installing');
    registration.installing = first;
    const pwa = await watching(registration);
    first.become('installed');
    await vi.advanceTimersByTimeAsync(LIMITS.swUpdateCheckMs);
    expect(pwa.isUpdatePending()).toBe(false);
  });
});
