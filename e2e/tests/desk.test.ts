import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { inject } from '../lib/suite.js';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { ja, jaMember } from '@enishi/contract';
import { createMember, sessionId } from '../lib/admin.js';
import { launchBrowser, logIn, newPhone, phone } from '../lib/browser.js';
import { composer, sendComment, timeline } from '../lib/talk.js';
import { people } from '../lib/users.js';
import { photograph } from '../lib/photograph.js';

// The staff desk (product.md §2.6) at a desk and on a phone; screenshots go to e2e/screenshots/.
const desk = { width: 1440, height: 900 };
const NOTE = '土曜午後が都合よい・喫煙しない方を希望';

let browser: Browser;
let staff: BrowserContext;
let member: BrowserContext;
let staffPage: Page;
let memberPage: Page;
/** Everything the member's device received: HTTP bodies and socket frames. */
const memberReceived: string[] = [];

const send = sendComment;

beforeAll(async () => {
  browser = await launchBrowser();
  staff = await newPhone(browser, desk);
  member = await newPhone(browser);
  staffPage = await staff.newPage();
  memberPage = await member.newPage();
  memberPage.on('response', (response) => {
    if (response.url().includes('/api/'))
      void response.text().then(
        (text) => memberReceived.push(text),
        () => {},
      );
  });
  memberPage.on('websocket', (socket) =>
    socket.on('framereceived', ({ payload }) => memberReceived.push(String(payload))),
  );
  await logIn(staffPage, 'staff');
  await logIn(memberPage, 'man');
  // A second man, so that the desk has rooms to move between.
  await createMember(staffPage, {
    id: 'desk-jiro',
    name: '木村次郎',
    password: 'Jiro-pass.1',
    role: 101,
    rank: 1,
  });
  await memberPage.goto('/talkrooms/staff');
  await memberPage.waitForURL(/\/talk\/staff\/\d+$/);
  await send(memberPage, '来週の土曜日に東京駅で待ち合わせできますか');
  await send(memberPage, 'よろしくお願いします');
});
afterAll(async () => {
  await staff?.close();
  await member?.close();
  await browser?.close();
});

describe('the staff desk at 1440 px', () => {
  test('the list, the talk and the member pane side by side; the address names the talk', async () => {
    // The room list is already the desk, with no talk chosen yet.
    await staffPage.goto('/talkrooms/men');
    await staffPage.getByText(jaMember.desk.noTalk).waitFor();
    await photograph(staffPage, 'desk-list-1440.png');
    await staffPage.getByRole('link', { name: people.man.name }).click();
    await staffPage.waitForURL(/\/talk\/\d+$/);
    const rooms = staffPage.getByRole('navigation', { name: jaMember.desk.rooms });
    await rooms.getByRole('link', { name: people.man.name }).waitFor();
    await timeline(staffPage).getByText('よろしくお願いします').waitFor();
    const pane = staffPage.getByRole('complementary', { name: jaMember.desk.profile });
    await pane.getByText(`ID ${people.man.id}`).waitFor();
    // The three panes sit side by side.
    const boxes = await Promise.all([
      rooms.boundingBox(),
      timeline(staffPage).boundingBox(),
      pane.boundingBox(),
    ]);
    expect(boxes[0]!.x + boxes[0]!.width).toBeLessThanOrEqual(boxes[1]!.x + 1);
    expect(boxes[1]!.x + boxes[1]!.width).toBeLessThanOrEqual(boxes[2]!.x + 1);
    await composer(staffPage).waitFor();
    await staffPage.getByText(jaMember.desk.enterHint).waitFor();
  });

  test('notes on the member: added with author and time, in the pane and on the edit screen', async () => {
    const pane = staffPage.getByRole('complementary', { name: jaMember.desk.profile });
    await pane.getByLabel(jaMember.desk.noteBody, { exact: true }).fill(NOTE);
    await pane.getByRole('button', { name: jaMember.desk.noteAdd }).click();
    const note = pane.getByRole('listitem').filter({ hasText: NOTE });
    await note.getByText(people.staff.name).waitFor();
    await photograph(staffPage, 'desk-1440.png');
    await pane.getByRole('link', { name: jaMember.desk.memberEdit }).click();
    await staffPage.waitForURL(/\/men\/edit\?id=\d+$/);
    await staffPage.getByRole('region', { name: jaMember.desk.notes }).getByText(NOTE).waitFor();
    await staffPage.goBack();
    await staffPage.waitForURL(/\/talk\/\d+$/);
  });

  test('keyboard: j / k move between rooms, r goes to the comment box, Ctrl+Enter sends', async () => {
    const rooms = staffPage.getByRole('navigation', { name: jaMember.desk.rooms });
    await rooms.getByRole('link', { name: '木村次郎' }).waitFor();
    const first = staffPage.url();
    await staffPage.locator('body').click({ position: { x: 5, y: 5 } });
    const order = await rooms
      .locator('a.room-row')
      .evaluateAll((links) => links.map((a) => a.getAttribute('href')));
    const at = order.indexOf(new URL(first).pathname);
    await staffPage.keyboard.press(at === 0 ? 'j' : 'k');
    await staffPage.waitForURL((url) => url.href !== first);
    await staffPage.goBack();
    await staffPage.waitForURL(first);
    await timeline(staffPage).getByText('よろしくお願いします').waitFor();
    await staffPage.locator('body').click({ position: { x: 5, y: 5 } });
    await staffPage.keyboard.press('r');
    await expect.poll(() => composer(staffPage).evaluate((box) => box === document.activeElement)).toBe(true);
    await staffPage.keyboard.type('キーボードから送信します');
    await staffPage.keyboard.press('Enter');
    await staffPage.keyboard.type('二行目');
    await staffPage.keyboard.press('Control+Enter');
    await timeline(memberPage).getByText('二行目').waitFor();
  });

  test('saved replies: made on their screen, typed as /name, the member’s name filled in', async () => {
    await staffPage.goto('/replies');
    await staffPage.getByLabel(jaMember.cannedReplies.replyName).fill('あいさつ');
    await staffPage
      .getByLabel(jaMember.cannedReplies.replyBody)
      .fill('{name}様、お問い合わせありがとうございます。担当の{staff}です。');
    await staffPage.getByRole('button', { name: jaMember.cannedReplies.replySave }).click();
    await staffPage
      .getByRole('list', { name: jaMember.cannedReplies.replyList })
      .getByText('/あいさつ')
      .waitFor();
    await staffPage.goBack();
    await staffPage.waitForURL(/\/talk\/\d+$/);
    await composer(staffPage).fill('/あい');
    const options = staffPage.getByRole('listbox', { name: jaMember.desk.cannedOptions });
    await options.getByRole('option', { name: /あいさつ/ }).waitFor();
    await composer(staffPage).press('Enter');
    const filled = `${people.man.name}様、お問い合わせありがとうございます。担当の${people.staff.name}です。`;
    await expect.poll(() => composer(staffPage).inputValue()).toBe(filled);
    await staffPage.getByRole('button', { name: ja.talk.send, exact: true }).click();
    await timeline(memberPage).getByText(filled).waitFor();
  });

  test('search finds kanji and kana and opens the talk at the message, highlighted', async () => {
    await staffPage.getByRole('button', { name: jaMember.desk.search, exact: true }).click();
    await staffPage.getByRole('searchbox', { name: jaMember.messageSearch.searchLabel }).fill('東京駅');
    await staffPage.getByRole('button', { name: jaMember.messageSearch.searchButton, exact: true }).click();
    const hit = staffPage.getByRole('list', { name: jaMember.desk.search }).getByRole('link').first();
    await hit.getByText('来週の土曜日に東京駅で待ち合わせできますか').waitFor();
    await photograph(staffPage, 'desk-search-1440.png');
    await hit.click();
    await staffPage.waitForURL(/\/talk\/\d+\?m=\d+$/);
    const found = timeline(staffPage).locator('[data-found]');
    await found.getByText('来週の土曜日に東京駅').waitFor();
    // Two characters (no trigram) work too.
    await staffPage.getByRole('searchbox', { name: jaMember.messageSearch.searchLabel }).fill('よろ');
    await staffPage.getByRole('button', { name: jaMember.messageSearch.searchButton, exact: true }).click();
    // Other suites on the same server may have written it too: any hit will do.
    await staffPage
      .getByRole('list', { name: jaMember.desk.search })
      .getByText('よろしくお願いします')
      .first()
      .waitFor();
  });

  test('pinning shows the message in the announcements once, not a second copy', async () => {
    await staffPage.goto(new URL(staffPage.url()).pathname);
    const message = timeline(staffPage)
      .getByRole('article')
      .filter({ hasText: 'よろしくお願いします' })
      .last();
    await message.getByRole('button', { name: ja.talk.messageMenu }).click();
    await staffPage.getByRole('menu').getByRole('menuitem', { name: ja.talk.announce }).click();
    const pins = memberPage.getByRole('region', { name: ja.talk.announceArea });
    await pins.getByText('よろしくお願いします').waitFor();
    await memberPage.reload();
    await timeline(memberPage).getByText('来週の土曜日').waitFor();
    expect(
      await timeline(memberPage).getByRole('article').filter({ hasText: 'よろしくお願いします' }).count(),
    ).toBe(1);
  });
});

describe('the staff desk at 1024 px', () => {
  test('two panes: the list and the talk, no member pane', async () => {
    await staffPage.setViewportSize({ width: 1024, height: 768 });
    await staffPage.goto('/talkrooms/men');
    await staffPage
      .getByRole('navigation', { name: jaMember.desk.rooms })
      .getByRole('link', { name: people.man.name })
      .click();
    await timeline(staffPage).getByText('よろしくお願いします').first().waitFor();
    expect(await staffPage.getByRole('complementary', { name: jaMember.desk.profile }).count()).toBe(0);
    expect(await staffPage.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(1024);
    await photograph(staffPage, 'desk-1024.png');
    await staffPage.setViewportSize(desk);
  });
});

describe('a bulk-send history', () => {
  test('is read-only: a note instead of the comment box', async () => {
    const ssid = await sessionId(staffPage);
    const uids = inject('uids');
    const sent = await staffPage.request.post('/api/messages/send', {
      data: { ssid, users: [uids[people.man.id]], message: '今月のイベントのお知らせです', image: [] },
    });
    expect(sent.ok()).toBe(true);
    const list = await staffPage.request.post('/api/conversations', {
      data: { ssid, type: 'sendmen', search: '', page: 0 },
    });
    const history = ((await list.json()) as { rows: { id: number }[] }).rows[0]!;
    await staffPage.goto(`/talk/${history.id}`);
    await timeline(staffPage).getByText('今月のイベントのお知らせです').waitFor();
    await staffPage.getByRole('note').getByText(jaMember.desk.readOnly).waitFor();
    expect(await composer(staffPage).count()).toBe(0);
  });
});

describe('on a phone at 375 px', () => {
  test('a member searches their own talks; staff notes never reach the device', async () => {
    await memberPage.goto('/search');
    await memberPage.getByRole('searchbox', { name: jaMember.messageSearch.searchLabel }).fill('土曜');
    await memberPage.getByRole('button', { name: jaMember.messageSearch.searchButton, exact: true }).click();
    const results = memberPage.getByRole('list', { name: jaMember.desk.search });
    await results.getByText('来週の土曜日に東京駅で待ち合わせできますか').waitFor();
    await photograph(memberPage, 'search-member-375.png');
    expect(await memberPage.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
      phone.width,
    );
    await results.getByRole('link').first().click();
    await memberPage.waitForURL(/\/talk\/staff\/\d+\?m=\d+$/);
    await timeline(memberPage).locator('[data-found]').waitFor();
    expect(memberReceived.length).toBeGreaterThan(5);
    expect(memberReceived.join('\n')).not.toContain(NOTE);
  });

  test('staff on a phone see one screen at a time', async () => {
    const context = await newPhone(browser);
    const page = await context.newPage();
    await logIn(page, 'staff');
    await page.goto('/talkrooms/men');
    await page.getByRole('link', { name: people.man.name }).click();
    await page.waitForURL(/\/talk\/\d+$/);
    await timeline(page).getByText('よろしくお願いします').first().waitFor();
    expect(await page.getByRole('navigation', { name: jaMember.desk.rooms }).count()).toBe(0);
    await photograph(page, 'talk-staff-375.png');
    await page.goto('/replies');
    await page.getByRole('list', { name: jaMember.cannedReplies.replyList }).waitFor();
    await photograph(page, 'replies-375.png');
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(phone.width);
    await context.close();
  });
});
