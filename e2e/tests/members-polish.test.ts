import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { inject } from '../lib/suite.js';
import { isDeskClosed, ja, jaIntro } from '@enishi/contract';
import { sessionId } from '../lib/admin.js';
import { launchBrowser, logIn, newPhone, phone } from '../lib/browser.js';
import { sendComment, storedMessage, timeline } from '../lib/talk.js';
import { people, type Person } from '../lib/users.js';
import { photograph } from '../lib/photograph.js';

/*
 * Members' polish (product.md §2.4, §12.2, §4.9): counts on the footer, 既読 N in group talks, one header and a
 * slim announcement on the talk screen, short talks at the bottom, the desk's auto-reply as a note. Each screen
 * is also photographed at 375 and 1440 px wide into e2e/screenshots (polish-*.png) for people to look at.
 */

const desktop = { width: 1440, height: 900 };

let browser: Browser;
const contexts: BrowserContext[] = [];
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await Promise.all(contexts.map((context) => context.close()));
  await browser?.close();
});

async function phoneOf(who: Person, viewport = phone): Promise<Page> {
  const context = await newPhone(browser, viewport);
  contexts.push(context);
  const page = await context.newPage();
  await logIn(page, who);
  return page;
}

const send = sendComment;

/** The same screen at both widths: `open` brings a fresh page of `who` to it. */
async function shootBoth(name: string, who: Person, open: (page: Page) => Promise<unknown>): Promise<void> {
  for (const [width, viewport] of [
    [375, phone],
    [1440, desktop],
  ] as const) {
    const page = await phoneOf(who, viewport);
    await open(page);
    await photograph(page, `polish-${name}-${width}.png`);
    const scrollWidth = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(scrollWidth).toBeLessThanOrEqual(viewport.width);
    await page.context().close();
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
    await man.goto(`/talk/${group}`);
    await send(man, 'はじめまして、よろしくお願いします');
    const mine = storedMessage(man, 'はじめまして、よろしくお願いします');

    const woman = await phoneOf('woman');
    await woman.goto(`/talk/${group}`);
    await timeline(woman).getByText('はじめまして、よろしくお願いします').waitFor();
    await mine.getByText(ja.talk.readCount(1), { exact: true }).waitFor();
    await staff.goto(`/talk/${group}`);
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
    await shootBoth('talk-group', 'woman', async (page) => {
      await page.goto(`/talk/${group}`);
      await timeline(page).getByText('はじめまして、よろしくお願いします').waitFor();
    });
  });
});

describe('the talk with the staff desk', () => {
  test('the footer counts what staff wrote; the announcement is one line until opened', async () => {
    const man = await phoneOf('man');
    await man.goto('/talkrooms/staff');
    await man.waitForURL(/\/talk\/staff\/\d+$/);
    const desk = Number(new URL(man.url()).pathname.split('/').pop());
    await send(man, '週末のお店の件で相談です');
    // Outside desk hours the desk's auto-reply is a note from the app, not a staff member's bubble.
    const note = man.getByRole('note', { name: ja.talk.autoReplyLabel });
    if (isDeskClosed(new Date())) {
      await note.waitFor();
      await photograph(man, 'polish-talk-auto-reply-375.png');
    }
    await man.goto('/');

    const staff = await phoneOf('staff');
    await staff.goto(`/talk/${desk}`);
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

    await shootBoth('talk-desk', 'man', async (page) => {
      await page.goto('/talkrooms/staff');
      const pins = page.getByRole('region', { name: ja.talk.announceArea });
      await pins.getByRole('button', { expanded: false }).waitFor();
      // Slim: one line, no 今後は表示しない until opened.
      const height = await pins.evaluate((element) => element.getBoundingClientRect().height);
      expect(height).toBeLessThan(56);
      expect(await pins.getByRole('button', { name: ja.talk.hideAnnounce }).count()).toBe(0);
    });
    await shootBoth('talk-desk-announcements-open', 'man', async (page) => {
      await page.goto('/talkrooms/staff');
      const pins = page.getByRole('region', { name: ja.talk.announceArea });
      await pins.getByRole('button', { expanded: false }).click();
      await pins.getByRole('button', { name: ja.talk.hideAnnounce }).first().waitFor();
    });
    await shootBoth('talk-desk-staff', 'staff', async (page) => {
      await page.goto(`/talk/${desk}`);
      await timeline(page).getByText('週末のお店の件で相談です').first().waitFor();
    });
  });
});

/** The screens that changed, each at 375 and 1440 px: who opens it, and what shows once it is drawn. */
const changedScreens: [name: string, who: Person, open: (page: Page) => Promise<unknown>][] = [
  [
    'home-member',
    'man',
    async (page) => {
      await page.goto('/');
      await page.getByRole('link', { name: ja.menu.memberLogin }).waitFor();
    },
  ],
  [
    'home-staff',
    'owner',
    async (page) => {
      await page.goto('/');
      await page.getByRole('link', { name: ja.menu.staffAdmin }).waitFor();
    },
  ],
  [
    'rooms-men',
    'staff',
    async (page) => {
      await page.goto('/talkrooms/men');
      await page.getByRole('list', { name: ja.talk.roomList }).waitFor();
    },
  ],
  [
    'menlist',
    'staff',
    async (page) => {
      await page.goto('/menlist');
      await page.getByRole('searchbox').waitFor();
      await page.waitForLoadState('networkidle');
    },
  ],
  [
    'send-men',
    'staff',
    async (page) => {
      await page.goto('/men/send');
      await page.getByText(people.man.name).first().waitFor();
    },
  ],
  [
    'mypage-member',
    'man',
    async (page) => {
      await page.goto('/mypage');
      await page.getByText(ja.ranks[people.man.rank]!).waitFor();
    },
  ],
];

describe('screens that changed', () => {
  // One test per screen: each logs in twice, which takes a while on a busy machine.
  test.each(changedScreens)('%s', async (name, who, open) => {
    await shootBoth(name, who, open);
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
        const context = await newPhone(browser, viewport);
        const page = await context.newPage();
        await page.goto(path);
        await page.getByRole('heading', { name: heading }).waitFor();
        expect(await page.locator('.intro-welcome wbr').count()).toBeGreaterThan(3);
        await photograph(page, `polish-${name}-${width}.png`, { fullPage: true });
        await context.close();
      }
    }
  });
});
