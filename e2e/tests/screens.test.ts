import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { ja, jaMember, jaIntro } from '@enishi/contract';
import { launchBrowser, logIn, newPhone, phone } from '../lib/browser.js';
import type { Person } from '../lib/users.js';
import { photograph } from '../lib/photograph.js';
import { drawnWhole, openScreen } from '../lib/screens.js';

// Screenshots of the finished screens at iPhone size, for people to look at (e2e/screenshots/, not committed).

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  // Closing the browser closes the kept pages' contexts.
  await browser?.close();
});

/** What a person would notice first on a phone: sideways scrolling, or text the CSP kept from loading. */
async function expectTidy(page: Page, errors: string[]) {
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  expect(width).toBeLessThanOrEqual(phone.width);
  expect(errors).toEqual([]);
}

/** A phone's page and the CSP refusals its console has reported. */
type Watched = { page: Page; errors: string[] };

/*
 * One page for the public pages, and one logged-in page per person, kept for the file. A public page is a
 * document of its own (prerendered), so it is loaded; a logged-in screen is opened inside the app (lib/screens.ts),
 * as a member moves between screens, not with a new login and page load each time.
 */
const kept = new Map<Person | 'public', Promise<Watched>>();

function phoneOf(who: Person | 'public'): Promise<Watched> {
  let watched = kept.get(who);
  if (!watched) {
    watched = (async () => {
      const context = await newPhone(browser);
      const page = await context.newPage();
      const errors: string[] = [];
      page.on('console', (message) => {
        if (message.type() === 'error' && /Content Security Policy|Refused/.test(message.text()))
          errors.push(message.text());
      });
      if (who !== 'public') await logIn(page, who);
      return { page, errors };
    })();
    kept.set(who, watched);
  }
  return watched;
}

async function shoot(
  path: string,
  name: string,
  who: Person | undefined,
  ready: (page: Page) => Promise<unknown>,
) {
  const { page, errors } = await phoneOf(who ?? 'public');
  if (who) await openScreen(page, path);
  else await page.goto(path);
  await ready(page);
  await drawnWhole(page);
  await photograph(page, `${name}.png`);
  // What the console reported since the page's last screen (its login too, the first time).
  await expectTidy(page, errors.splice(0));
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
