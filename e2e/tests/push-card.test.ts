import { afterAll, beforeAll, expect, test } from 'vitest';
import { inject } from '../lib/suite.js';
import { type Browser, type BrowserContext } from 'playwright-core';
import { jaMember } from '@enishi/contract';
import { launchBrowser, logIn, phone } from '../lib/browser.js';
import { watchSecrets } from '../lib/secrets.js';
import { launchInstalledApp } from '../lib/installed-app.js';
import { photograph } from '../lib/photograph.js';

/*
 * The push card on mypage in real Chromium (product.md §16): what it explains before notifications are on,
 * the switches after, asking and subscribing, and 通知はオン only when the server holds the subscription.
 * What a push shows is push.test.ts's. Screenshots of the panels go to e2e/screenshots/ (not committed).
 */

let context: BrowserContext;

beforeAll(async () => {
  // A persistent profile with service workers and notifications allowed: the home-screen app of a member.
  // This file's browsers are the whole Chromium: its headless build has no notifications (lib/chromium.ts).
  context = await launchInstalledApp('push-card', { build: 'full' });
  await context.grantPermissions(['notifications']);
});
afterAll(async () => {
  await context?.close();
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
    await photograph(shotPage, name);
  };
  return { phoneContext, shotPage, save };
}

test('after login, mypage explains notifications; an iPhone in Safari is shown how to add the app first', async () => {
  const browser = await launchBrowser([], 'full');
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
  const browser = await launchBrowser([], 'full');
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
  await tab.getByText(jaMember.pushSetup.subscribeFailed).waitFor();

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
