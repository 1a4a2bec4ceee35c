import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ja, jaMember } from '@enishi/contract';
import type { Browser, Page } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, afterEach, beforeAll, expect, test } from 'vitest';
import { inject } from '../lib/suite.js';
import { launchBrowser, logIn, newPhone } from '../lib/browser.js';
import { photograph } from '../lib/photograph.js';
import {
  COMMENT_TEXTS,
  TIMELINE,
  commentBoxProblems,
  fillCommentBox,
  measureCommentBox,
  type CommentBoxMeasure,
} from '../lib/comment-box.js';
import { sendComment, storedMessage, timeline } from '../lib/talk.js';
import { people, type Person } from '../lib/users.js';
import { startWebKitDriver, type WebKitDriver, type WebKitSession } from '../lib/webkit.js';

/*
 * The members' main paths in WebKit, the engine of every iPhone browser (product.md §2.7): logging in,
 * the talk with the staff (sending, a reply arriving live, a stamp, 送信取消, the history after a reload, a
 * picture), the comment box with long text (issue 47), news and mypage.
 * WebKitGTK's MiniBrowser stands in for Safari; the staff side is Chromium, as on an office PC.
 */

// MiniBrowser's window is 447 px at its narrowest (its toolbar): the narrowest phone the test can ask for. The
// 375 and 390 px layouts are photographed in Chromium (screens.test.ts).
const iPhone = { width: 390, height: 844 };
const baseURL = inject('baseURL');
let driver: WebKitDriver;
let chromium: Browser;
const sessions: WebKitSession[] = [];

beforeAll(async () => {
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

/** A stored stamp in the talk's timeline, its picture loaded and drawn at 120 px. */
const storedStamp = (label: string) =>
  `[...document.querySelectorAll('[aria-label=${JSON.stringify(ja.talk.timeline)}] article[data-message-id] img.msg__stamp')]` +
  `.some((image) => image.alt === ${JSON.stringify(label)} && image.naturalWidth > 0 && image.getBoundingClientRect().width === 120)`;

/** The same stamp on the staff's Chromium page. */
const storedStampIn = (page: Page, label: string) =>
  timeline(page).locator('article[data-message-id]').getByRole('img', { name: label, exact: true }).last();

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

    // A stamp from the picker beside the comment box (product.md §12.8): drawn large for him, and for staff.
    await (await man.find(`button[aria-label=${JSON.stringify(jaMember.talkLimit.stamp.open)}]`)).click();
    const thanks = `button[aria-label=${JSON.stringify(jaMember.stamps.send('ありがとう'))}]`;
    await man.until(`document.querySelector(${JSON.stringify(thanks)}) !== null`, 'the stamp picker opening');
    await (await man.find(thanks)).click();
    await man.until(storedStamp('ありがとう'), 'his stamp being stored and drawn');
    await storedStampIn(staff, 'ありがとう').waitFor();
    await photograph(man, 'webkit-talk-phone.png');
    expect(await fitsWidth(man)).toBe(true);

    await man.goto(`${baseURL}${talkPath}`);
    await man.until(
      `${stored(question)} && ${stored(answer)} && ${storedStamp('ありがとう')}`,
      'the talk history after a reload',
    );
  } finally {
    await office.close();
  }
});

test('a man takes back his message (送信取消); the staff see it replaced live, and so does he after a reload', async () => {
  const man = await logInWebKit('man');
  await man.goto(`${baseURL}/talkrooms/staff`);
  await man.until(`/^\\/talk\\/staff\\/\\d+$/.test(location.pathname)`, 'the talk with the staff opening');
  const talkPath = (await man.url()).pathname;
  const conversationId = /(\d+)$/.exec(talkPath)![1]!;

  const words = `WebKitで取り消す言葉 ${Date.now()}`;
  await (await man.find(`textarea[placeholder=${JSON.stringify(ja.talk.placeholder)}]`)).type(words);
  await (await man.find(`button[aria-label=${JSON.stringify(ja.talk.send)}]`)).click();
  await man.until(stored(words), 'his message being stored');

  const office = await newPhone(chromium, { width: 1440, height: 900 });
  try {
    const staff = await office.newPage();
    await logIn(staff, 'staff');
    await staff.goto(`/talk/${conversationId}`);
    await storedMessage(staff, words).waitFor();

    // Its menu (the ⋯ button beside it), 送信取消, and yes to the question.
    const id = await man.run<string>(
      `return [...document.querySelectorAll('article[data-message-id]')].find((row) => row.textContent.includes(${JSON.stringify(words)})).dataset.messageId;`,
    );
    await (
      await man.find(
        `article[data-message-id="${id}"] button[aria-label=${JSON.stringify(ja.talk.messageMenu)}]`,
      )
    ).click();
    await (
      await man.find(`//button[@role="menuitem"][normalize-space()=${literal(jaMember.unsend.action)}]`)
    ).click();
    await (await man.find(`//dialog[@open]//button[normalize-space()=${literal(ja.app.yes)}]`)).click();
    const replaced = (id: string) =>
      `document.querySelector('article[data-message-id="${id}"]')?.textContent.includes(${JSON.stringify(jaMember.unsend.unsent)}) === true` +
      ` && !document.body.textContent.includes(${JSON.stringify(words)})`;
    await man.until(replaced(id), 'his bubble saying the message was taken back');
    await staff
      .locator(`article[data-message-id="${id}"]`)
      .filter({ hasText: jaMember.unsend.unsent })
      .waitFor();
    // The desk's room list says so too once it has read the talks again (a moment after the frame).
    await expect.poll(() => staff.getByText(words).count()).toBe(0);
    expect(await fitsWidth(man)).toBe(true);

    await man.goto(`${baseURL}${talkPath}`);
    await man.until(replaced(id), 'the taken-back message after a reload');
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
  await photograph(woman, 'webkit-news-phone.png');
  expect(await fitsWidth(woman)).toBe(true);
});

test('the comment box stays within the phone whatever is typed, and a picture goes out', async () => {
  const man = await logInWebKit('man');
  await man.goto(`${baseURL}/talkrooms/staff`);
  await man.until(`/^\\/talk\\/staff\\/\\d+$/.test(location.pathname)`, 'the talk with the staff opening');
  await man.find('.composer__input');
  await man.find(TIMELINE);
  const found: string[] = [];
  for (const [name, text] of Object.entries(COMMENT_TEXTS)) {
    await man.run(fillCommentBox, text);
    await man.until(
      `document.querySelector('.composer__input').value.length === ${text.length}`,
      `${name} in the box`,
    );
    const measured = await man.run<CommentBoxMeasure>(measureCommentBox);
    found.push(...commentBoxProblems(measured).map((problem) => `${name}: ${problem}`));
    if (name === 'url') await photograph(man, 'webkit-comment-box-url.png');
  }
  expect(found).toEqual([]);
  await man.run(fillCommentBox, '');

  // A picture, picked through the file input as a person would pick one, goes out and is stored.
  const photo = join(mkdtempSync(join(tmpdir(), 'webkit-photo-')), 'photo.png');
  writeFileSync(
    photo,
    await sharp({ create: { width: 320, height: 240, channels: 3, background: '#c8a0aa' } })
      .png()
      .toBuffer(),
  );
  await (await man.find('.composer__picker input[type="file"]')).type(photo);
  await man.until(`document.querySelectorAll('.composer__thumb-image').length === 1`, 'the picture attached');
  await (await man.find(`button[aria-label=${JSON.stringify(ja.talk.send)}]`)).click();
  await man.until(
    `[...document.querySelectorAll('[aria-label=${JSON.stringify(ja.talk.timeline)}] article[data-message-id] img')].length > 0`,
    'the picture stored and shown in the talk',
    30_000,
  );
});
