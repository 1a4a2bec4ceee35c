import { describe, expect, test } from 'vitest';
import type { Page } from 'playwright-core';
import { inject } from '../lib/suite.js';
import { isDeskClosed, ja, jaIntro } from '@enishi/contract';
import { pagesPerFile, sessionId } from '../lib/admin.js';
import { phone } from '../lib/browser.js';
import { sendComment, storedMessage, timeline } from '../lib/talk.js';
import { people, type Person } from '../lib/users.js';
import { photograph, photographing } from '../lib/photograph.js';
import { openDrawn, openScreen } from '../lib/screens.js';

/*
 * Members' polish (product.md §2.4, §12.2, §4.9): counts on the footer, 既読 N in group talks, one header and a
 * slim announcement on the talk screen, short talks at the bottom, the desk's auto-reply as a note. Each screen
 * is also photographed at 375 and 1440 px wide into e2e/screenshots (polish-*.png) for people to look at.
 */

const desktop = { width: 1440, height: 900 };

/*
 * One logged-in page per person and width, kept for the whole file (lib/admin.ts): each screen is opened inside
 * the app, as a member moves between screens.
 */
const { pageOf } = pagesPerFile();
const phoneOf = (who: Person, viewport = phone) => pageOf(who, viewport);

/** `who`'s page at `path`, drawn whole once `ready` has found the screen's content. */
async function opened(
  who: Person,
  path: string,
  ready: (page: Page) => Promise<unknown>,
  viewport = phone,
): Promise<Page> {
  const page = await phoneOf(who, viewport);
  await openDrawn(page, path, ready);
  return page;
}

const send = sendComment;

/** The same screen at both widths, photographed once drawn whole; nothing wider than the screen. */
async function shootBoth(
  name: string,
  who: Person,
  path: string,
  ready: (page: Page) => Promise<unknown>,
): Promise<void> {
  for (const [width, viewport] of [
    [375, phone],
    [1440, desktop],
  ] as const) {
    const page = await opened(who, path, ready, viewport);
    // A kept page may still show a toast about a live message from earlier (4.5 s): the photograph is of the
    // screen, so it waits for that to go.
    if (photographing) await page.locator('.toast').first().waitFor({ state: 'detached' });
    await photograph(page, `polish-${name}-${width}.png`);
    const scrollWidth = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(scrollWidth).toBeLessThanOrEqual(viewport.width);
  }
}

/** Staff register a group talk for the seeded man and woman over the API, as /managegroup does. */
async function newGroup(staff: Page): Promise<number> {
  const uids = inject('uids');
  const reply = await staff.request.post('/api/add_conversation', {
    data: {
      ssid: await sessionId(staff),
      params: { men: uids[people.man.id], women: uids[people.woman.id], type: 'st' },
    },
  });
  expect(reply.status()).toBe(200);
  return ((await reply.json()) as { conversation_id: number }).conversation_id;
}

describe('a group talk', () => {
  test('shows 既読 with the count of the other sides who read, live, under one header', async () => {
    const staff = await phoneOf('staff');
    const group = await newGroup(staff);
    const man = await phoneOf('man');
    await openScreen(man, `/talk/${group}`);
    await send(man, 'はじめまして、よろしくお願いします');
    const mine = storedMessage(man, 'はじめまして、よろしくお願いします');

    const woman = await phoneOf('woman');
    await openScreen(woman, `/talk/${group}`);
    await timeline(woman).getByText('はじめまして、よろしくお願いします').waitFor();
    await mine.getByText(ja.talk.readCount(1), { exact: true }).waitFor();
    await openScreen(staff, `/talk/${group}`);
    await timeline(staff).getByText('はじめまして、よろしくお願いします').waitFor();
    await mine.getByText(ja.talk.readCount(2), { exact: true }).waitFor();

    // One header: the talk's own (its name as the heading), not the app's above it.
    await man.getByRole('heading', { level: 1 }).waitFor();
    expect(await man.locator('.app-header').isVisible()).toBe(false);
    // A short talk sits at the bottom, next to the comment box.
    const gap = await man.evaluate(() => {
      const articles = document.querySelectorAll('[role="log"] article');
      const last = articles[articles.length - 1]!.getBoundingClientRect();
      const box = document.querySelector('textarea')!.getBoundingClientRect();
      return box.top - last.bottom;
    });
    expect(gap).toBeGreaterThanOrEqual(0);
    expect(gap).toBeLessThan(80);

    await photograph(man, 'polish-talk-group-375.png');
    await shootBoth('talk-group', 'woman', `/talk/${group}`, async (page) => {
      await timeline(page).getByText('はじめまして、よろしくお願いします').waitFor();
    });
  });
});

describe('the talk with the staff desk', () => {
  test('the footer counts what staff wrote; the announcement is one line until opened', async () => {
    const man = await phoneOf('man');
    await openScreen(man, '/talkrooms/staff');
    await man.waitForURL(/\/talk\/staff\/\d+$/);
    const desk = Number(new URL(man.url()).pathname.split('/').pop());
    await send(man, '週末のお店の件で相談です');
    // Outside desk hours the desk's auto-reply is a note from the app, not a staff member's bubble.
    const note = man.getByRole('note', { name: ja.talk.autoReplyLabel });
    if (isDeskClosed(new Date())) {
      await note.waitFor();
      await photograph(man, 'polish-talk-auto-reply-375.png');
    }
    await openScreen(man, '/');

    const staff = await phoneOf('staff');
    await openScreen(staff, `/talk/${desk}`);
    await send(staff, '土曜日は19時に銀座でお待ちしております');
    const footer = man.getByRole('navigation', { name: ja.footer.label });
    await footer
      // Its visible label, then the count in words (a browser may put a space between them).
      .getByRole('link', { name: new RegExp(`^${ja.footer.talkWithStaff}\\s*（未読 \\d+ 件）$`) })
      .waitFor();
    await photograph(man, 'polish-home-member-counts-375.png');

    const menu = storedMessage(staff, '土曜日は19時に銀座でお待ちしております').getByRole('button', {
      name: ja.talk.messageMenu,
    });
    await menu.click();
    await staff.getByRole('menu').getByRole('menuitem', { name: ja.talk.announce }).click();

    await shootBoth('talk-desk', 'man', '/talkrooms/staff', async (page) => {
      const pins = page.getByRole('region', { name: ja.talk.announceArea });
      await pins.getByRole('button', { expanded: false }).waitFor();
      // Slim: one line, no 今後は表示しない until opened.
      const height = await pins.evaluate((element) => element.getBoundingClientRect().height);
      expect(height).toBeLessThan(56);
      expect(await pins.getByRole('button', { name: ja.talk.hideAnnounce }).count()).toBe(0);
    });
    await shootBoth('talk-desk-announcements-open', 'man', '/talkrooms/staff', async (page) => {
      const pins = page.getByRole('region', { name: ja.talk.announceArea });
      await pins.getByRole('button', { expanded: false }).click();
      await pins.getByRole('button', { name: ja.talk.hideAnnounce }).first().waitFor();
    });
    await shootBoth('talk-desk-staff', 'staff', `/talk/${desk}`, async (page) => {
      await timeline(page).getByText('週末のお店の件で相談です').first().waitFor();
    });
  });
});

/** The screens that changed, each at 375 and 1440 px: who opens it, and what shows once it is drawn. */
const changedScreens: [name: string, who: Person, path: string, ready: (page: Page) => Promise<unknown>][] = [
  [
    'home-member',
    'man',
    '/',
    async (page) => {
      await page.getByRole('link', { name: ja.menu.memberLogin }).waitFor();
    },
  ],
  [
    'home-staff',
    'owner',
    '/',
    async (page) => {
      await page.getByRole('link', { name: ja.menu.staffAdmin }).waitFor();
    },
  ],
  [
    'rooms-men',
    'staff',
    '/talkrooms/men',
    async (page) => {
      await page.getByRole('list', { name: ja.talk.roomList }).waitFor();
    },
  ],
  [
    'menlist',
    'staff',
    '/menlist',
    async (page) => {
      await page.getByRole('searchbox').waitFor();
    },
  ],
  [
    'send-men',
    'staff',
    '/men/send',
    async (page) => {
      await page.getByText(people.man.name).first().waitFor();
    },
  ],
  [
    'mypage-member',
    'man',
    '/mypage',
    async (page) => {
      await page.getByText(ja.ranks[people.man.rank]!).waitFor();
    },
  ],
];

describe('screens that changed', () => {
  test.each(changedScreens)('%s', async (name, who, path, ready) => {
    await shootBoth(name, who, path, ready);
  });

  test('the public pages, with lines broken between phrases', async () => {
    for (const [path, name, heading] of [
      ['/intro/male', 'intro-male', jaIntro.maleTitle],
      ['/intro/female', 'intro-female', jaIntro.femaleTitle],
    ] as const) {
      for (const [width, viewport] of [
        [375, phone],
        [1440, desktop],
      ] as const) {
        const page = await pageOf('public', viewport);
        await openDrawn(page, path, (shown) => shown.getByRole('heading', { name: heading }).waitFor(), {
          load: true,
        });
        expect(await page.locator('.intro-welcome wbr').count()).toBeGreaterThan(3);
        await photograph(page, `polish-${name}-${width}.png`, { fullPage: true });
      }
    }
  });
});
