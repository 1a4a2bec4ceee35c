import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ja } from '@enishi/contract';
import type { Browser } from 'playwright-core';
import { afterAll, afterEach, beforeAll, expect, inject, test } from 'vitest';
import { launchBrowser, logIn, newPhone } from '../lib/browser.js';
import { repoRoot } from '../lib/server.js';
import { sendComment, storedMessage } from '../lib/talk.js';
import { people, type Person } from '../lib/users.js';
import { startWebKitDriver, type WebKitDriver, type WebKitSession } from '../lib/webkit.js';

/*
 * The members' main paths in WebKit, the engine of every iPhone browser (product.md §2.7): logging in,
 * the talk with the staff (sending, a reply arriving live, the history after a reload), news and mypage.
 * WebKitGTK's MiniBrowser stands in for Safari; the staff side is Chromium, as on an office PC.
 */

// MiniBrowser's window is 447 px at its narrowest (its toolbar): the narrowest phone the test can ask for. The
// 375 and 390 px layouts are photographed in Chromium (screens.test.ts).
const iPhone = { width: 390, height: 844 };
const screenshots = join(repoRoot, 'e2e/screenshots');
const baseURL = inject('baseURL');
let driver: WebKitDriver;
let chromium: Browser;
const sessions: WebKitSession[] = [];

beforeAll(async () => {
  mkdirSync(screenshots, { recursive: true });
  [driver, chromium] = await Promise.all([startWebKitDriver(), launchBrowser()]);
});
// WebKitWebDriver drives one window at a time.
afterEach(async () => {
  for (const session of sessions.splice(0)) await session.close().catch(() => undefined);
});
afterAll(async () => {
  await Promise.all([driver?.stop(), chromium?.close()]);
});

/** XPath string literal for `text` (the texts here hold no quote marks). */
const literal = (text: string) => `"${text}"`;

/** A fresh MiniBrowser window at iPhone size, logged in through the login screen as a member would. */
async function logInWebKit(who: Person): Promise<WebKitSession> {
  const session = await driver.session(iPhone);
  sessions.push(session);
  await session.goto(`${baseURL}/login`);
  await (await session.find('input[autocomplete="username"]')).type(people[who].id);
  await (await session.find('input[autocomplete="current-password"]')).type(people[who].password);
  await (await session.find(`//button[normalize-space()=${literal(ja.login.submit)}]`)).click();
  await session.until(`location.pathname === '/mypage'`, `${who} reaching /mypage after login`);
  // The address changes first; the screen is drawn a moment later (the router renders in a transition).
  await session.until(
    `document.querySelector('main')?.textContent.includes(${JSON.stringify(people[who].name)}) === true`,
    `${who}'s name on mypage`,
  );
  return session;
}

/** The stored (echoed, with an id) message with `text` in the talk's timeline. */
const stored = (text: string) =>
  `[...document.querySelectorAll('[aria-label=${JSON.stringify(ja.talk.timeline)}] article[data-message-id]')]` +
  `.some((row) => row.textContent.includes(${JSON.stringify(text)}))`;

/** Nothing wider than the phone: no sideways scrolling. */
const fitsWidth = (session: WebKitSession) =>
  session.run<boolean>('return document.documentElement.scrollWidth <= innerWidth;');

test('a man logs in, talks with the staff and gets their reply live; after a reload the talk is there', async () => {
  const man = await logInWebKit('man');
  expect(await fitsWidth(man)).toBe(true);

  await man.goto(`${baseURL}/talkrooms/staff`);
  await man.until(`/^\\/talk\\/staff\\/\\d+$/.test(location.pathname)`, 'the talk with the staff opening');
  const talkPath = (await man.url()).pathname;
  const conversationId = /(\d+)$/.exec(talkPath)![1]!;

  const question = `WebKitから質問です ${Date.now()}`;
  await (await man.find(`textarea[placeholder=${JSON.stringify(ja.talk.placeholder)}]`)).type(question);
  await (await man.find(`button[aria-label=${JSON.stringify(ja.talk.send)}]`)).click();
  await man.until(stored(question), 'his message being stored');

  // The staff answer from an office PC (Chromium); the reply reaches the iPhone over its socket.
  const office = await newPhone(chromium, { width: 1440, height: 900 });
  try {
    const staff = await office.newPage();
    await logIn(staff, 'staff');
    await staff.goto(`/talk/${conversationId}`);
    await storedMessage(staff, question).waitFor();
    const answer = `スタッフからの返信です ${Date.now()}`;
    await sendComment(staff, answer);
    await man.until(stored(answer), 'the staff reply arriving live, without a reload');
    writeFileSync(join(screenshots, 'webkit-talk-phone.png'), await man.screenshot());
    expect(await fitsWidth(man)).toBe(true);

    await man.goto(`${baseURL}${talkPath}`);
    await man.until(`${stored(question)} && ${stored(answer)}`, 'the talk history after a reload');
  } finally {
    await office.close();
  }
});

test('a woman logs in and reads the news and her mypage', async () => {
  const woman = await logInWebKit('woman');
  await woman.goto(`${baseURL}/news`);
  await woman.until(
    `[...document.querySelectorAll('h1, h2')].some((h) => h.textContent.includes(${JSON.stringify(ja.screens.news)}))`,
    'the news screen',
  );
  writeFileSync(join(screenshots, 'webkit-news-phone.png'), await woman.screenshot());
  expect(await fitsWidth(woman)).toBe(true);
});
