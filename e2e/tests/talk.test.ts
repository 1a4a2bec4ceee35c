import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type Browser, type BrowserContext, type Page } from 'playwright-core';
import { ja } from '@enishi/contract';
import { launchBrowser, logIn, newPhone } from '../lib/browser.js';
import {
  deskBadge,
  messageMenu,
  photo,
  send,
  nothingUnreadFromStaff,
  openDeskAsMember,
  openDeskAsStaff,
} from '../lib/desk-talk.js';
import { timeline } from '../lib/talk.js';
import { people } from '../lib/users.js';
import { launchInstalledApp } from '../lib/installed-app.js';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

describe('talking live', () => {
  let member: BrowserContext;
  let staff: BrowserContext;
  let memberPage: Page;
  let staffPage: Page;

  beforeAll(async () => {
    member = await newPhone(browser);
    staff = await newPhone(browser);
    memberPage = await member.newPage();
    staffPage = await staff.newPage();
    await logIn(memberPage, 'man');
    await logIn(staffPage, 'staff');
    await openDeskAsMember(memberPage);
    await openDeskAsStaff(staffPage, people.man.name);
  });
  afterAll(async () => {
    await member?.close();
    await staff?.close();
  });

  test('a member and staff chat both ways, and an empty comment is refused', async () => {
    await memberPage.getByRole('button', { name: ja.talk.send, exact: true }).click();
    await memberPage.getByRole('status').getByText(ja.talk.emptyComment).waitFor();

    await send(memberPage, '今週末のセッティングについて相談させてください');
    await timeline(staffPage).getByText('今週末のセッティングについて相談させてください').waitFor();
    await send(staffPage, 'かしこまりました。ご希望の日時を教えてください https://example.jp/help');
    await timeline(memberPage).getByText('かしこまりました。ご希望の日時を教えてください').waitFor();
    // Links open in a new tab; nothing else in a message is markup.
    const link = timeline(memberPage).getByRole('link', { name: 'https://example.jp/help' });
    expect(await link.getAttribute('target')).toBe('_blank');
    await send(staffPage, '<b>太字</b>にはなりません');
    await timeline(memberPage).getByText('<b>太字</b>にはなりません').waitFor();
    // The member read it: staff see 既読 under their message.
    await timeline(staffPage).getByText(ja.talk.read).first().waitFor();
  });

  test('images are resized, sent as JPEG, stored and seen on the other side', async () => {
    // The socket is already open: its frames are read where the page sends them.
    await memberPage.evaluate(() => {
      const frames: string[] = [];
      const send = WebSocket.prototype.send;
      WebSocket.prototype.send = function (this: WebSocket, data) {
        frames.push(String(data));
        send.call(this, data);
      };
      (window as unknown as { sentFrames: string[] }).sentFrames = frames;
    });
    await memberPage.getByLabel(ja.talk.addImage).setInputFiles({
      name: 'photo.png',
      mimeType: 'image/png',
      buffer: await photo(),
    });
    await send(memberPage, 'お店の写真です');
    const image = timeline(staffPage)
      .getByRole('article')
      .filter({ hasText: 'お店の写真です' })
      .locator('img')
      .first();
    await image.waitFor();
    await expect
      .poll(() => image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth))
      .toBe(400);
    const src = await image.getAttribute('src');
    expect(src).toMatch(/^\/media\//);
    const served = await staffPage.evaluate(async (url) => {
      const response = await fetch(url);
      return { type: response.headers.get('content-type'), bytes: (await response.arrayBuffer()).byteLength };
    }, src!);
    expect(served.type).toBe('image/jpeg');
    expect(served.bytes).toBeLessThan(200_000);
    const sent = await memberPage.evaluate(() => (window as unknown as { sentFrames: string[] }).sentFrames);
    const frame = sent.find((payload) => payload.includes('お店の写真です'));
    expect(frame).toContain('"data:image/jpeg;base64,');
  });

  test('a reply quotes the message it answers, on both sides', async () => {
    await send(memberPage, '駅前のお店はいかがですか');
    await timeline(staffPage).getByText('駅前のお店はいかがですか').waitFor();
    const menu = await messageMenu(staffPage, '駅前のお店はいかがですか');
    await menu.getByRole('menuitem', { name: ja.talk.reply }).click();
    await staffPage.getByRole('button', { name: ja.talk.cancelReply }).waitFor();
    await send(staffPage, '素敵なお店ですね');
    const reply = timeline(memberPage).getByRole('article').filter({ hasText: '素敵なお店ですね' });
    await reply.waitFor();
    await reply.getByText('駅前のお店はいかがですか').waitFor();
  });

  test('an announcement is pinned for both, and 今後は表示しない takes it down', async () => {
    await send(staffPage, '日曜日は18時に新宿でお待ちしております');
    const menu = await messageMenu(staffPage, '日曜日は18時に新宿でお待ちしております');
    await menu.getByRole('menuitem', { name: ja.talk.announce }).click();
    const memberPins = memberPage.getByRole('region', { name: ja.talk.announceArea });
    await memberPins.getByText('日曜日は18時に新宿でお待ちしております').waitFor();
    const staffPins = staffPage.getByRole('region', { name: ja.talk.announceArea });
    // Slim until opened: one line, then the list with 今後は表示しない. Other files on this worker's server may
    // have pinned announcements in the same talk: this one's own button takes this one down, for both.
    await staffPins.getByRole('button', { expanded: false }).click();
    await staffPins
      .getByRole('listitem')
      .filter({ hasText: '日曜日は18時に新宿でお待ちしております' })
      .getByRole('button', { name: ja.talk.hideAnnounce })
      .click();
    await memberPins.getByText('日曜日は18時に新宿でお待ちしております').waitFor({ state: 'detached' });
    await staffPins.getByText('日曜日は18時に新宿でお待ちしております').waitFor({ state: 'detached' });
  });

  test('deleting asks first, then the message is gone on both sides', async () => {
    await send(memberPage, '間違えて送りました');
    await timeline(staffPage).getByText('間違えて送りました').waitFor();
    const menu = await messageMenu(memberPage, '間違えて送りました');
    await menu.getByRole('menuitem', { name: ja.talk.delete }).click();
    const dialog = memberPage.getByRole('alertdialog');
    await dialog.getByText(ja.talk.deleteConfirm).waitFor();
    await dialog.getByRole('button', { name: ja.app.yes }).click();
    await memberPage.getByRole('status').getByText(ja.talk.deleted).waitFor();
    await timeline(memberPage).getByText('間違えて送りました').waitFor({ state: 'detached' });
    await timeline(staffPage).getByText('間違えて送りました').waitFor({ state: 'detached' });
  });

  test('a member may not delete what staff wrote', async () => {
    await send(staffPage, 'お席はこちらでご用意します');
    await timeline(memberPage).getByText('お席はこちらでご用意します').waitFor();
    const menu = await messageMenu(memberPage, 'お席はこちらでご用意します');
    expect(await menu.getByRole('menuitem', { name: ja.talk.delete }).count()).toBe(0);
    await memberPage.keyboard.press('Escape');
  });

  test('tapping a reply’s quote brings the original into view', async () => {
    await send(staffPage, 'ご予約は午後三時です');
    const menu = await messageMenu(staffPage, 'ご予約は午後三時です');
    await menu.getByRole('menuitem', { name: ja.talk.reply }).click();
    // Messages in between push the original out of the member's view.
    for (let index = 1; index <= 12; index += 1) await send(memberPage, `確認中です ${index}`);
    // Staff, with the reply bar open, still follow the newest messages.
    await timeline(staffPage).getByText('確認中です 12', { exact: true }).waitFor();
    await send(staffPage, '三時で承りました');

    const original = timeline(memberPage)
      .getByRole('article')
      .filter({
        hasText: 'ご予約は午後三時です',
        hasNot: memberPage.getByRole('button', { name: /ご予約は午後三時です/ }),
      })
      .first();
    const reply = timeline(memberPage).getByRole('article').filter({ hasText: '三時で承りました' });
    await reply.waitFor();
    const inView = () =>
      original
        .evaluate(
          (article) => {
            const scroller = article.closest('[role="log"]')!.getBoundingClientRect();
            const box = article.getBoundingClientRect();
            return box.bottom > scroller.top && box.top < scroller.bottom;
          },
          undefined,
          { timeout: 1000 },
        )
        .catch(() => false);
    expect(await inView()).toBe(false);

    await reply.getByRole('button', { name: /ご予約は午後三時です/ }).click();
    await expect.poll(inView).toBe(true);
    // Focus moves to it, for keyboards and screen readers.
    await expect.poll(() => original.evaluate((article) => article === document.activeElement)).toBe(true);
  });
});

test('a message sent while the receiver had the app closed is there when it opens', async () => {
  // Everything in her desk talk read first (this server also serves other test files), so the badge
  // counts exactly the one message below.
  const before = await newPhone(browser);
  const beforePage = await before.newPage();
  const allRead = nothingUnreadFromStaff(beforePage);
  await logIn(beforePage, 'woman');
  await openDeskAsMember(beforePage);
  await allRead;
  await before.close();

  const staff = await newPhone(browser);
  const staffPage = await staff.newPage();
  await logIn(staffPage, 'staff');
  // The woman's desk talk is in the women's list.
  await staffPage.goto('/talkrooms/women');
  await staffPage.getByRole('link', { name: people.woman.name }).click();
  await timeline(staffPage).waitFor();
  await send(staffPage, '花子様、明日のご予定はいかがでしょうか');
  await timeline(staffPage).getByText('花子様、明日のご予定はいかがでしょうか').waitFor();
  await staff.close();

  const woman = await newPhone(browser);
  const page = await woman.newPage();
  await logIn(page, 'woman');
  await page.goto('/');
  // The badge on the home menu says so before the talk is opened.
  await deskBadge(page, 1);
  await openDeskAsMember(page);
  await timeline(page).getByText('花子様、明日のご予定はいかがでしょうか').waitFor();
  await woman.close();
});

test('a message typed offline is delivered once after the network returns, across a reload', async () => {
  // A profile with the service worker, so the app reloads while offline like an installed app.
  const member = await launchInstalledApp('outbox', { timezoneId: 'Asia/Tokyo' });
  await member.addInitScript('globalThis.__name = f => f');
  const page = member.pages()[0] ?? (await member.newPage());
  await logIn(page, 'man');
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
  });
  await openDeskAsMember(page);
  await page.reload();
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null);
  await timeline(page).waitFor();

  await member.setOffline(true);
  const text = `電波の届かない所で書きました ${Date.now()}`;
  await send(page, text);
  await timeline(page).getByRole('article').filter({ hasText: text }).getByText(ja.talk.waiting).waitFor();
  await page.reload();
  await timeline(page).getByRole('article').filter({ hasText: text }).getByText(ja.talk.waiting).waitFor();
  await member.setOffline(false);
  await timeline(page).getByRole('article').filter({ hasText: text }).getByText(ja.talk.waiting).waitFor({
    state: 'detached',
    timeout: 30_000,
  });

  // Staff see it exactly once.
  const staff = await newPhone(browser);
  const staffPage = await staff.newPage();
  await logIn(staffPage, 'staff');
  await openDeskAsStaff(staffPage, people.man.name);
  await timeline(staffPage).getByText(text).waitFor();
  expect(await timeline(staffPage).getByText(text).count()).toBe(1);
  await staff.close();
  await member.close();
});

test("a talk's header keeps its place while the talk's row is on its way: nothing moves when it comes", async () => {
  const context = await newPhone(browser);
  const page = await context.newPage();
  await logIn(page, 'man');
  await openDeskAsMember(page);
  // The talk opens again with its row held back until the header has been drawn without it.
  let release = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route('**/api/get_conversation', async (route) => {
    await held;
    await route.continue();
  });
  await page.reload();
  const titles = page.locator('.talk-header__titles');
  await page.getByRole('heading', { level: 1, name: ja.screens.talk }).waitFor();
  const before = await titles.boundingBox();
  release();
  await titles.getByText(ja.talk.deskTalk).waitFor();
  expect(await titles.boundingBox()).toEqual(before);
  await context.close();
});
