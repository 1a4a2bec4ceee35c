// @vitest-environment jsdom
import 'fake-indexeddb/auto';
import { jaMember } from '@enishi/contract';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { clearLocalState } from '@/lib/local-state';
import { setSession, type Session } from '@/lib/session';
import { PushPanel } from './push-panel';

/*
 * jsdom has no Notification, PushManager or service worker: each test gives the page the browser it acts as
 * (an iPhone's Safari tab, or a browser that can ask). Chromium's real parts are in e2e/tests/push.test.ts.
 */

const member: Session = { uid: 7, role: 101, rank: 1, name: '山田太郎', session: 's', image: null };

function actAs(userAgent: string, permission?: NotificationPermission, answer?: NotificationPermission) {
  Object.defineProperty(navigator, 'userAgent', { configurable: true, get: () => userAgent });
  const asked: string[] = [];
  if (permission) {
    const stub = {
      permission,
      requestPermission: () => {
        asked.push('asked');
        return Promise.resolve(answer ?? permission);
      },
    };
    Object.assign(globalThis, { Notification: stub, PushManager: class {} });
    Object.defineProperty(navigator, 'serviceWorker', { configurable: true, value: {} });
  }
  return asked;
}

const iphone =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';
const android =
  'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Mobile Safari/537.36';

function show() {
  render(
    <QueryClientProvider client={new QueryClient()}>
      <PushPanel session={member} />
    </QueryClientProvider>,
  );
}

afterEach(() => {
  cleanup();
  clearLocalState();
  vi.unstubAllGlobals();
  Reflect.deleteProperty(globalThis, 'Notification');
  Reflect.deleteProperty(globalThis, 'PushManager');
  Reflect.deleteProperty(navigator, 'serviceWorker');
});

describe('the notifications panel on mypage', () => {
  it('shows an iPhone in Safari how to add the app to the home screen, and offers no button', () => {
    actAs(iphone);
    show();
    expect(screen.getByRole('heading', { name: jaMember.pushSetup.installTitle })).toBeTruthy();
    for (const step of jaMember.pushSetup.installSteps) expect(screen.getByText(step)).toBeTruthy();
    expect(screen.queryByRole('button', { name: jaMember.pushSetup.enable })).toBeNull();
  });

  it('explains what notifications are for and asks only when the member taps', async () => {
    const asked = actAs(android, 'default', 'denied');
    show();
    expect(screen.getByText(jaMember.pushSetup.lead)).toBeTruthy();
    expect(asked).toEqual([]);

    fireEvent.click(screen.getByRole('button', { name: jaMember.pushSetup.enable }));
    // Said no on the prompt: the card tells how to allow notifications again in the settings.
    expect(await screen.findByRole('heading', { name: jaMember.pushSetup.deniedTitle })).toBeTruthy();
    expect(asked).toEqual(['asked']);
    expect(screen.getByText(jaMember.pushSetup.deniedLead)).toBeTruthy();
  });

  it('tells someone who blocked notifications how to allow them again', () => {
    actAs(android, 'denied');
    show();
    expect(screen.getByRole('heading', { name: jaMember.pushSetup.deniedTitle })).toBeTruthy();
    for (const step of jaMember.pushSetup.deniedSteps) expect(screen.getByText(step)).toBeTruthy();
    expect(screen.queryByRole('button')).toBeNull();
  });

  it('says nothing changed and what to do when the question was closed without an answer', async () => {
    actAs(android, 'default', 'default');
    show();
    fireEvent.click(screen.getByRole('button', { name: jaMember.pushSetup.enable }));
    expect((await screen.findByRole('alert')).textContent).toBe(jaMember.pushSetup.dismissed);
  });

  it('says the device could not subscribe, and how to try again, when the push service refuses', async () => {
    actAs(android, 'default', 'granted');
    const registration = {
      pushManager: {
        getSubscription: () => Promise.resolve(null),
        subscribe: () => Promise.reject(new DOMException('push service not available', 'AbortError')),
      },
    };
    Object.defineProperty(navigator, 'serviceWorker', {
      configurable: true,
      value: { ready: Promise.resolve(registration) },
    });
    setSession(member);
    vi.stubGlobal('fetch', () =>
      Promise.resolve(new Response(JSON.stringify({ publicKey: 'BBBB' }), { status: 200 })),
    );
    show();
    fireEvent.click(screen.getByRole('button', { name: jaMember.pushSetup.enable }));
    expect((await screen.findByRole('alert', {}, { timeout: 5000 })).textContent).toBe(
      jaMember.pushSetup.subscribeFailed,
    );
  });

  it('checks the server once per login: a new name or photo in the session asks nothing again', async () => {
    actAs(android, 'granted');
    const registration = {
      pushManager: { getSubscription: () => Promise.resolve({ endpoint: 'https://push.example/e2e' }) },
    };
    Object.defineProperty(navigator, 'serviceWorker', {
      configurable: true,
      value: { ready: Promise.resolve(registration) },
    });
    setSession(member);
    // Which login each check was asked for, in order (the settings card below stays loading).
    const checked: string[] = [];
    vi.stubGlobal('fetch', (url: string, init: RequestInit) => {
      if (!url.endsWith('/push/check')) return new Promise(() => undefined);
      checked.push((JSON.parse(String(init.body)) as { ssid: string }).ssid);
      return Promise.resolve(new Response(JSON.stringify({ registered: true }), { status: 200 }));
    });
    const client = new QueryClient();
    const panel = (session: Session) => (
      <QueryClientProvider client={client}>
        <PushPanel session={session} />
      </QueryClientProvider>
    );
    const { rerender } = render(panel(member));
    expect(await screen.findByText(jaMember.pushSetup.enabled)).toBeTruthy();
    // The profile's answer writes the session again with a new name and photo: same user, same login.
    rerender(panel({ ...member, name: '山田次郎', image: 'new.webp' }));
    // Then a new login on this device, which is checked again.
    setSession({ ...member, session: 's2' });
    rerender(panel({ ...member, session: 's2' }));
    await vi.waitFor(() => expect(checked).toContain('s2'));
    expect(checked).toEqual(['s', 's2']);
    expect(screen.getByText(jaMember.pushSetup.enabled)).toBeTruthy();
  });

  it('tells a browser without notifications where they work', () => {
    actAs(android);
    show();
    expect(screen.getByText(jaMember.pushSetup.unsupported)).toBeTruthy();
    expect(screen.queryByRole('button', { name: jaMember.pushSetup.enable })).toBeNull();
  });
});
