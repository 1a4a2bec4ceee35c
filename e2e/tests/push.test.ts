import { afterAll, beforeAll, expect, test } from 'vitest';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page, type Worker } from 'playwright-core';
import { inject } from 'vitest';
import { ja, type PushPayload, jaMember, jaIntro } from '@enishi/contract';
import { chromiumArgs, chromiumPath, launchBrowser, logIn, phone } from '../lib/browser.js';
import { watchSecrets } from '../lib/secrets.js';
import { repoRoot } from '../lib/server.js';

/*
 * Push notifications in real Chromium (product.md §16): a push is handed to the service worker through the DevTools
 * protocol (ServiceWorker.deliverPushMessage, as a push service would), and the page reads what the worker
 * showed. Screenshots of the panels go to e2e/screenshots/ (not committed).
 */

const shots = join(repoRoot, 'e2e/screenshots');
let context: BrowserContext;
let page: Page;
let worker: Worker;
let push: (payload: PushPayload) => Promise<void>;

beforeAll(async () => {
  // A persistent profile with service workers and notifications allowed: the home-screen app of a member.
  context = await chromium.launchPersistentContext(mkdtempSync(join(tmpdir(), 'enishi-push-')), {
    executablePath: chromiumPath,
    args: chromiumArgs,
    baseURL: inject('baseURL'),
    viewport: phone,
    locale: 'ja-JP',
  });
  await context.grantPermissions(['notifications']);
  page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  const registered = new Promise<string>((resolve) =>
    cdp.on('ServiceWorker.workerRegistrationUpdated', ({ registrations }) => {
      const ours = registrations.find((registration) => registration.scopeURL.startsWith(inject('baseURL')));
      if (ours && !ours.isDeleted) resolve(ours.registrationId);
    }),
  );
  await cdp.send('ServiceWorker.enable');
  await page.goto('/enter');
  await page.evaluate(() => navigator.serviceWorker.ready.then(() => undefined));
  worker = context.serviceWorkers()[0] ?? (await context.waitForEvent('serviceworker'));
  // The talk opens in a window the worker controls, as in the installed app.
  await opening(() => page.reload());
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null);
  const registrationId = await registered;
  const origin = new URL(inject('baseURL')).origin;
  push = async (payload) => {
    await cdp.send('ServiceWorker.deliverPushMessage', {
      origin,
      registrationId,
      data: JSON.stringify(payload),
    });
  };
});
afterAll(async () => {
  await context?.close();
});

const shown = () =>
  page.evaluate(async () => {
    const registration = await navigator.serviceWorker.ready;
    return (await registration.getNotifications()).map((n) => ({
      title: n.title,
      body: n.body,
      tag: n.tag,
      icon: n.icon,
      badge: n.badge,
      data: n.data as unknown,
    }));
  });

/**
 * Runs `navigation` and waits until the app it opens has cleared the notifications shown before (it does as it
 * starts): a push after that stays on screen. A notification of the test's own, shown first, tells when.
 */
async function opening(navigation: () => Promise<unknown>): Promise<void> {
  await worker.evaluate(() =>
    (self as unknown as { registration: ServiceWorkerRegistration }).registration.showNotification('probe', {
      tag: 'probe',
    }),
  );
  await navigation();
  await page.waitForFunction(
    async () => (await (await navigator.serviceWorker.ready).getNotifications({ tag: 'probe' })).length === 0,
    undefined,
    { polling: 100, timeout: 10_000 },
  );
}

const untilShown = async (body: string) => {
  await expect.poll(async () => (await shown()).map((n) => n.body), { timeout: 10_000 }).toContain(body);
  return shown();
};

test('a push shows a notification with the title, icon and badge, one per talk: the next one replaces it', async () => {
  // The app icon badge is the platform's: the worker's calls are recorded where it makes them.
  await worker.evaluate(() => {
    const scope = self as unknown as {
      badges: number[];
      navigator: { setAppBadge?: (n?: number) => Promise<void> };
    };
    scope.badges = [];
    scope.navigator.setAppBadge = async (count?: number) => {
      scope.badges.push(count ?? 0);
    };
  });
  const title = ja.talk.fromMember.replace('{name}', '山田太郎');
  await push({ title, body: '', url: '/news', tag: 'talk-5', badge: 2 });
  expect(await untilShown('')).toEqual([
    {
      title,
      body: '',
      tag: 'talk-5',
      icon: `${inject('baseURL')}/icons/icon-192.png`,
      badge: `${inject('baseURL')}/icons/badge-96.png`,
      data: { url: '/news' },
    },
  ]);

  await push({ title, body: '2通目', url: '/news', tag: 'talk-5', badge: 3 });
  const after = await untilShown('2通目');
  expect(after.map((n) => [n.tag, n.body])).toEqual([['talk-5', '2通目']]);
  expect(await worker.evaluate(() => (self as unknown as { badges: number[] }).badges)).toEqual([2, 3]);
});

/**
 * Taps the shown notifications of `tags`, in order. DevTools cannot click a notification: the worker gets the
 * same notificationclick event a tap sends.
 */
async function tap(...tags: string[]): Promise<void> {
  await worker.evaluate(async (tags) => {
    type Scope = {
      registration: { getNotifications: (filter: { tag: string }) => Promise<Notification[]> };
      dispatchEvent: (event: Event) => boolean;
      NotificationEvent: new (type: string, init: { notification: Notification }) => Event;
    };
    const scope = self as unknown as Scope;
    for (const tag of tags) {
      const [notification] = await scope.registration.getNotifications({ tag });
      if (!notification) throw new Error(`no notification ${tag}`);
      scope.dispatchEvent(new scope.NotificationEvent('notificationclick', { notification }));
    }
  }, tags);
}

test('a tap on the notification brings the open window to the talk', async () => {
  await push({ title: ja.talk.fromStaff, body: '', url: '/intro/male', tag: 'talk-9', badge: 1 });
  await untilShown('');
  await opening(async () => {
    await tap('talk-9');
    await page.waitForURL('**/intro/male');
  });
  await page.getByRole('heading', { name: jaIntro.maleTitle }).waitFor();
});

test('a call push stays until tapped; a tap brings the open app forward without reloading it', async () => {
  await push({
    title: jaMember.calls.pushTitle,
    body: jaMember.calls.pushBody('山田太郎'),
    url: '/call?from=7',
    tag: 'call',
    badge: 0,
  });
  await untilShown(jaMember.calls.pushBody('山田太郎'));
  expect(
    await page.evaluate(async () => {
      const [call] = await (await navigator.serviceWorker.ready).getNotifications({ tag: 'call' });
      return call?.requireInteraction;
    }),
  ).toBe(true);
  const visited: string[] = [];
  page.on('framenavigated', (frame) => {
    if (frame === page.mainFrame()) visited.push(new URL(frame.url()).pathname);
  });
  // A tap on the call (the app rings already: a navigation would drop the call), then one on a talk.
  await push({ title: ja.talk.fromStaff, body: 'talk', url: '/intro/female', tag: 'talk-12', badge: 1 });
  await untilShown('talk');
  await opening(async () => {
    await tap('call', 'talk-12');
    await page.waitForURL('**/intro/female');
  });
  // Only the talk's page was visited: the call tap neither opened /call nor reloaded the page it was on. (The
  // router's own replaceState as the page starts may report /intro/female a second time.)
  expect([...new Set(visited)]).toEqual(['/intro/female']);
});

test('opening the app clears the notifications it has shown', async () => {
  await push({ title: ja.talk.fromStaff, body: '', url: '/news', tag: 'talk-10', badge: 1 });
  await untilShown('');
  await page.reload();
  await expect.poll(async () => (await shown()).length, { timeout: 10_000 }).toBe(0);
});

test('a push that is not the contract shape shows nothing', async () => {
  await push({ title: 'x', body: 'bad', url: 'https://evil.example/', tag: 't', badge: 1 });
  await push({ title: ja.talk.fromStaff, body: 'good', url: '/news', tag: 'talk-11', badge: 1 });
  const now = await untilShown('good');
  expect(now.map((n) => n.body)).not.toContain('bad');
});

const iphoneSafari =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';

async function mypageShot(
  browser: Browser,
  name: string,
  options: { userAgent?: string; permissions?: string[] } = {},
) {
  const phoneContext = await browser.newContext({
    baseURL: inject('baseURL'),
    viewport: phone,
    locale: 'ja-JP',
    timezoneId: 'Asia/Tokyo',
    ...options,
  });
  await phoneContext.addInitScript('globalThis.__name = f => f');
  watchSecrets(phoneContext);
  const shotPage = await phoneContext.newPage();
  await logIn(shotPage, 'man');
  // The card in the middle of the phone's screen, as the member sees it after scrolling to it.
  const save = async (card: string) => {
    const heading = shotPage.getByRole('heading', { name: card });
    await heading.evaluate((element) => element.scrollIntoView({ block: 'center' }));
    await shotPage.screenshot({ path: join(shots, name) });
  };
  return { phoneContext, shotPage, save };
}

test('after login, mypage explains notifications; an iPhone in Safari is shown how to add the app first', async () => {
  const browser = await launchBrowser();
  try {
    const card = await mypageShot(browser, 'push-card.png');
    await card.shotPage.getByRole('button', { name: jaMember.pushSetup.enable }).waitFor();
    await card.save(jaMember.pushSetup.title);

    const guide = await mypageShot(browser, 'push-iphone-guide.png', { userAgent: iphoneSafari });
    await guide.shotPage.getByRole('heading', { name: jaMember.pushSetup.installTitle }).waitFor();
    expect(await guide.shotPage.getByRole('button', { name: jaMember.pushSetup.enable }).count()).toBe(0);
    await guide.save(jaMember.pushSetup.installTitle);
  } finally {
    await browser.close();
  }
});

test('with notifications allowed, mypage shows the switches of what the member receives', async () => {
  const browser = await launchBrowser();
  try {
    const settings = await mypageShot(browser, 'push-settings.png', { permissions: ['notifications'] });
    await settings.shotPage.getByRole('heading', { name: jaMember.pushSetup.settingsTitle }).waitFor();
    const names = await settings.shotPage
      .getByRole('switch')
      .evaluateAll((switches) =>
        switches.map((item) => item.closest('label')?.querySelector('.push-switch__label')?.textContent),
      );
    expect(names).toEqual([
      jaMember.pushSetup.kinds.staff,
      jaMember.pushSetup.kinds.st,
      jaMember.pushSetup.kinds.news,
      jaMember.pushSetup.kinds.broadcast,
      jaMember.pushSetup.showText,
    ]);
    await settings.save(jaMember.pushSetup.settingsTitle);
  } finally {
    await browser.close();
  }
});

test('a tap asks for permission, then subscribes with the server key (up to pushManager.subscribe)', async () => {
  const tab = await context.newPage();
  // Headless Chromium never shows the prompt, and its push service is out of reach here: the page's
  // permission reads "not asked" until the tap asks, and subscribe records its options and fails.
  await tab.addInitScript(() => {
    const record = window as unknown as { asked: number; subscribedWith: number[] | null };
    record.asked = 0;
    record.subscribedWith = null;
    Object.defineProperty(Notification, 'permission', {
      get: () => (record.asked > 0 ? 'granted' : 'default'),
    });
    Notification.requestPermission = async () => {
      record.asked += 1;
      return 'granted';
    };
    PushManager.prototype.subscribe = async (options?: PushSubscriptionOptionsInit) => {
      const key = options?.applicationServerKey as Uint8Array;
      record.subscribedWith = [...key, options?.userVisibleOnly ? 1 : 0];
      throw new DOMException('no push service in the test', 'AbortError');
    };
  });
  await logIn(tab, 'man');
  await tab.getByRole('button', { name: jaMember.pushSetup.enable }).click();
  await tab.getByText(jaMember.pushSetup.failed).waitFor();

  const ssid = await tab.evaluate(
    () =>
      (JSON.parse(localStorage.getItem('enishi') ?? '{}') as { session?: { session: string } }).session
        ?.session,
  );
  const reply = await tab.request.post('/api/pushkey', { data: { ssid } });
  const { publicKey } = (await reply.json()) as { publicKey: string };
  const serverKey = [...Buffer.from(publicKey, 'base64url')];
  const seen = await tab.evaluate(() => {
    const { asked, subscribedWith } = window as unknown as { asked: number; subscribedWith: number[] | null };
    return { asked, subscribedWith };
  });
  expect(seen).toEqual({ asked: 1, subscribedWith: [...serverKey, 1] });
  await tab.close();
});

test('the card says 通知はオン only when the server holds this device’s subscription, and registers it again when lost', async () => {
  const tab = await context.newPage();
  const endpoint = 'https://fcm.googleapis.com/fcm/send/enishi-e2e-truth';
  // The browser's push service is out of reach here: the page's PushManager hands out one fixed subscription,
  // or none at all while `e2e-push-broken` is set (a device whose subscription never came to be).
  await tab.addInitScript((url) => {
    const fake = {
      endpoint: url,
      expirationTime: null,
      options: { applicationServerKey: null, userVisibleOnly: true },
      toJSON: () => ({ endpoint: url, expirationTime: null, keys: { p256dh: 'BKey-e2e', auth: 'auth-e2e' } }),
      unsubscribe: async () => true,
    };
    const broken = () => localStorage.getItem('e2e-push-broken') === '1';
    PushManager.prototype.getSubscription = async () =>
      (broken() ? null : fake) as unknown as PushSubscription;
    PushManager.prototype.subscribe = async () => {
      if (broken()) throw new DOMException('no push service in the test', 'AbortError');
      return fake as unknown as PushSubscription;
    };
  }, endpoint);
  await tab.goto('/enter');
  await tab.evaluate(() => localStorage.setItem('e2e-push-broken', '1'));
  await logIn(tab, 'woman');
  const card = tab.getByRole('region', { name: jaMember.pushSetup.title });
  // Allowed, but nothing registered: the card says so and offers to set it up, never 通知はオン.
  await card.getByText(jaMember.pushCheck.notRegistered).waitFor();
  expect(await card.getByText(jaMember.pushSetup.enabled).count()).toBe(0);
  await card.getByRole('button', { name: jaMember.pushSetup.enable }).waitFor();

  const ssid = await tab.evaluate(
    () =>
      (JSON.parse(localStorage.getItem('enishi') ?? '{}') as { session?: { session: string } }).session
        ?.session,
  );
  const check = async () =>
    (
      (await (await tab.request.post('/api/push/check', { data: { ssid, endpoint } })).json()) as {
        registered: boolean;
      }
    ).registered;
  expect(await check()).toBe(false);

  // The device subscribes: on, and the server holds it.
  await tab.evaluate(() => localStorage.removeItem('e2e-push-broken'));
  await card.getByRole('button', { name: jaMember.pushSetup.enable }).click();
  await card.getByText(jaMember.pushSetup.enabled).waitFor();
  expect(await check()).toBe(true);

  // The server loses it: opening mypage again registers it again before saying on.
  const subscript = { endpoint, expirationTime: null, keys: { p256dh: 'BKey-e2e', auth: 'auth-e2e' } };
  const removed = await tab.request.post('/api/subscript', {
    data: { ssid, subscript: null, oldSubscript: subscript },
  });
  expect(removed.status()).toBe(200);
  expect(await check()).toBe(false);
  await tab.reload();
  await tab
    .getByRole('region', { name: jaMember.pushSetup.title })
    .getByText(jaMember.pushSetup.enabled)
    .waitFor();
  expect(await check()).toBe(true);
  await tab.close();
});
