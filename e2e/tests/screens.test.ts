import { describe, expect, test } from 'vitest';
import type { Page } from 'playwright-core';
import { ja, jaMember, jaIntro } from '@enishi/contract';
import { pagesPerFile } from '../lib/admin.js';
import { phone } from '../lib/browser.js';
import type { Person } from '../lib/users.js';
import { photograph } from '../lib/photograph.js';
import { openDrawn } from '../lib/screens.js';

// Screenshots of the finished screens at iPhone size, for people to look at (e2e/screenshots/, not committed).

/** What a person would notice first on a phone: sideways scrolling, or text the CSP kept from loading. */
async function expectTidy(page: Page, errors: string[]) {
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  expect(width).toBeLessThanOrEqual(phone.width);
  expect(errors).toEqual([]);
}

/*
 * One page for the public pages, and one logged-in page per person, kept for the file (lib/admin.ts). A public
 * page is a document of its own (prerendered), so it is loaded; a logged-in screen is opened inside the app.
 * Each page's CSP refusals, as its console reports them.
 */
const refusals = new WeakMap<Page, string[]>();
const { pageOf } = pagesPerFile((page) => {
  const errors: string[] = [];
  refusals.set(page, errors);
  page.on('console', (message) => {
    if (message.type() === 'error' && /Content Security Policy|Refused/.test(message.text()))
      errors.push(message.text());
  });
});

async function shoot(
  path: string,
  name: string,
  who: Person | undefined,
  ready: (page: Page) => Promise<unknown>,
) {
  const page = await pageOf(who ?? 'public');
  await openDrawn(page, path, ready, { load: !who });
  await photograph(page, `${name}.png`);
  // What the console reported since the page's last screen (its login too, the first time).
  await expectTidy(page, refusals.get(page)!.splice(0));
}

describe('screens at 375x812', () => {
  test('enter', () =>
    shoot('/enter', 'enter', undefined, (page) =>
      page.getByRole('link', { name: ja.enter.login }).waitFor(),
    ));
  test('login', () => shoot('/login', 'login', undefined, (page) => page.getByText(ja.login.note).waitFor()));
  test('intro male', () =>
    shoot('/intro/male', 'intro-male', undefined, (page) =>
      page.getByRole('heading', { name: jaIntro.maleTitle }).waitFor(),
    ));
  test('intro female', () =>
    shoot('/intro/female', 'intro-female', undefined, (page) =>
      page.getByRole('heading', { name: jaIntro.femaleTitle }).waitFor(),
    ));
  test('staff home', () =>
    shoot('/', 'home-staff', 'owner', (page) =>
      page.getByRole('link', { name: ja.menu.staffAdmin }).waitFor(),
    ));
  test('member home', () =>
    shoot('/', 'home-member', 'man', (page) =>
      page.getByRole('link', { name: ja.menu.memberLogin }).waitFor(),
    ));
  test('staff: men talk list', () =>
    shoot('/talkrooms/men', 'rooms-men', 'staff', (page) =>
      page.getByRole('list', { name: 'トークの一覧' }).waitFor(),
    ));
  test('member: talk with staff', () =>
    shoot('/talkrooms/staff', 'talk-member', 'man', async (page) => {
      await page.getByRole('log', { name: 'メッセージ' }).waitFor();
    }));
  test('staff: men list', () =>
    shoot('/menlist', 'menlist', 'staff', (page) => page.getByRole('searchbox').waitFor()));
  test('member: news', () =>
    shoot('/news', 'news-member', 'man', (page) => page.getByRole('heading', { level: 1 }).waitFor()));
  test('owner: banners', () =>
    shoot('/managead', 'managead', 'owner', (page) => page.getByRole('region').first().waitFor()));
  test('staff: news form', () =>
    shoot('/news/men/add', 'news-form', 'staff', (page) => page.getByText(jaMember.news.addImage).waitFor()));
  test('staff: bulk send form', () =>
    shoot('/men/send/form', 'send-form', 'staff', (page) =>
      page.getByText(jaMember.broadcast.addImage).waitFor(),
    ));
  test('member mypage', () =>
    shoot('/mypage', 'mypage-member', 'man', (page) =>
      page.getByRole('heading', { name: jaMember.mypage.memberTitle }).waitFor(),
    ));
});
