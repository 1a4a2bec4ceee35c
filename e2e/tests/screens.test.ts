import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { ja, jaMember, jaIntro } from '@enishi/contract';
import { launchBrowser, logIn, newPhone, phone } from '../lib/browser.js';
import type { Person } from '../lib/users.js';
import { photograph } from '../lib/photograph.js';

// Screenshots of the finished screens at iPhone size, for people to look at (e2e/screenshots/, not committed).

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

/** What a person would notice first on a phone: sideways scrolling, or text the CSP kept from loading. */
async function expectTidy(page: Page, errors: string[]) {
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  expect(width).toBeLessThanOrEqual(phone.width);
  expect(errors).toEqual([]);
}

async function shoot(path: string, name: string, who?: Person, ready?: (page: Page) => Promise<unknown>) {
  const context = await newPhone(browser);
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error' && /Content Security Policy|Refused/.test(message.text()))
      errors.push(message.text());
  });
  if (who) await logIn(page, who);
  await page.goto(path);
  await (ready ? ready(page) : page.waitForLoadState('networkidle'));
  await photograph(page, `${name}.png`);
  await expectTidy(page, errors);
  await context.close();
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
      await page.waitForLoadState('networkidle');
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
