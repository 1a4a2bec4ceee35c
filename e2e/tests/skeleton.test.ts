import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { ja, jaMember, jaIntro } from '@enishi/contract';
import { launchBrowser, logIn, newPhone } from '../lib/browser.js';
import { openScreen } from '../lib/screens.js';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

/** A new phone; once logged in, home is opened inside the app (lib/screens.ts), as a tap on ホーム would. */
async function freshPage(): Promise<Page> {
  const context = await newPhone(browser);
  return context.newPage();
}

const staffMenu = [
  ja.menu.staffTalkList,
  ja.menu.addGroup,
  ja.menu.menTalkList,
  ja.menu.womenTalkList,
  ja.menu.menAdmin,
  ja.menu.womenAdmin,
  ja.menu.newsAdmin,
  ja.menu.bannerAdmin,
  ja.menu.sendMen,
  ja.menu.sendWomen,
];
const memberMenu = [ja.menu.groupTalkList, ja.menu.talkWithStaff, ja.menu.news, ja.menu.mypage];

async function menuNames(page: Page): Promise<string[]> {
  const menu = page.getByRole('navigation', { name: ja.home.menuLabel });
  await menu.waitFor();
  const items = await menu.getByRole('link').allInnerTexts();
  return items.map((text) => text.replace(/\s+\d+$/, '').trim());
}

async function footerNames(page: Page): Promise<string[]> {
  const footer = page.getByRole('navigation', { name: ja.footer.label });
  // A button's unread count (a number on its icon, and its words for screen readers) is not its label.
  return (await footer.getByRole('link').allInnerTexts()).map((text) =>
    text
      .replace(/^\d+\+?\s*/, '')
      .replace(/\s*（未読 \d+ 件）$/, '')
      .trim(),
  );
}

describe('who sees what after login', () => {
  test('a staff member (role 3) sees the staff menu without staff admin, and the staff footer', async () => {
    const page = await freshPage();
    await logIn(page, 'staff');
    await page.getByRole('heading', { name: jaMember.mypage.staffTitle }).waitFor();
    await page.getByRole('link', { name: ja.footer.home }).click();
    await page.waitForURL((url) => url.pathname === '/');
    const names = await menuNames(page);
    expect(names).toEqual(expect.arrayContaining(staffMenu));
    expect(names).not.toContain(ja.menu.staffAdmin);
    expect(names).not.toContain(ja.menu.groupTalkList);
    await page.getByRole('button', { name: ja.menu.logout }).waitFor();
    expect(await footerNames(page)).toEqual([
      ja.footer.home,
      ja.footer.staffTalks,
      ja.footer.news,
      ja.footer.mypage,
    ]);
    await page.context().close();
  });

  test('the owner (role 2) alone sees staff admin', async () => {
    const page = await freshPage();
    await logIn(page, 'owner');
    await openScreen(page, '/');
    const names = await menuNames(page);
    expect(names).toEqual(expect.arrayContaining([...staffMenu, ja.menu.staffAdmin]));
    await page.getByRole('link', { name: ja.menu.staffAdmin }).click();
    await page.waitForURL('**/staff/menu');
    await page.context().close();
  });

  test('an admin (role 1) does not see staff admin and is sent home from it', async () => {
    const page = await freshPage();
    await logIn(page, 'admin');
    await openScreen(page, '/');
    expect(await menuNames(page)).not.toContain(ja.menu.staffAdmin);
    await page.goto('/staff/menu');
    await page.waitForURL((url) => url.pathname === '/');
    await page.context().close();
  });

  test('a male member (101) sees the member menu with member-site login and a member footer button', async () => {
    const page = await freshPage();
    await logIn(page, 'man');
    await page.getByRole('heading', { name: jaMember.mypage.memberTitle }).waitFor();
    await openScreen(page, '/');
    const names = await menuNames(page);
    expect(names).toEqual([...memberMenu, ja.menu.memberLogin]);
    expect(await footerNames(page)).toEqual([
      ja.footer.home,
      ja.footer.talkWithStaff,
      ja.footer.news,
      ja.footer.member,
      ja.footer.mypage,
    ]);
    // Staff screens are not for members.
    await page.goto('/men/menu');
    await page.waitForURL((url) => url.pathname === '/');
    await page.context().close();
  });

  test('a female member (201) sees the member menu without member-site login', async () => {
    const page = await freshPage();
    await logIn(page, 'woman');
    await openScreen(page, '/');
    expect(await menuNames(page)).toEqual(memberMenu);
    expect(await footerNames(page)).toEqual([
      ja.footer.home,
      ja.footer.talkWithStaff,
      ja.footer.news,
      ja.footer.mypage,
    ]);
    await page.context().close();
  });
});

describe('logging out and the route guard', () => {
  test('logout asks first, then returns to login, and protected routes go to /enter', async () => {
    const page = await freshPage();
    await logIn(page, 'woman');
    await openScreen(page, '/');
    await page.getByRole('button', { name: ja.menu.logout }).click();
    const dialog = page.getByRole('alertdialog');
    await dialog.getByText(ja.logout.confirm).waitFor();
    // "No" keeps the member logged in.
    await dialog.getByRole('button', { name: ja.app.no }).click();
    await dialog.waitFor({ state: 'detached' });
    expect(new URL(page.url()).pathname).toBe('/');
    await page.getByRole('button', { name: ja.menu.logout }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: ja.app.yes }).click();
    await page.waitForURL('**/login');
    await page.goto('/news');
    await page.waitForURL('**/enter');
    await page.context().close();
  });

  test('a logged-out visit to a protected route lands on /enter; an unknown path goes to /', async () => {
    const page = await freshPage();
    await page.goto('/mypage');
    await page.waitForURL('**/enter');
    await page.goto('/talk/12');
    await page.waitForURL('**/enter');
    await page.goto('/no/such/screen');
    await page.waitForURL('**/enter');
    await page.getByRole('link', { name: ja.enter.login }).waitFor();
    await page.context().close();
  });

  test('a session ended on the server sends the user to /enter', async () => {
    const page = await freshPage();
    // Only the route guard's check with the server may tell the page: the chat socket never connects (the
    // server would tell it at once), and from the end of the session on, the page's other calls get no answer
    // (their 401 would end it too).
    await page.routeWebSocket('**/ws/**', () => undefined);
    await logIn(page, 'man');
    await page.route('**/api/**', (route) =>
      new URL(route.request().url()).pathname === '/api/auth' ? route.continue() : undefined,
    );
    // End the session on the server, as logging out on another device or deleting the member would.
    const ssid = await page.evaluate(() => {
      const stored = JSON.parse(localStorage.getItem('enishi') ?? '{}') as { session?: { session?: string } };
      return stored.session?.session ?? '';
    });
    expect(ssid).not.toBe('');
    const reply = await page.request.post('/api/logout', { data: { ssid } });
    expect(reply.status()).toBe(200);
    expect(await page.evaluate(() => localStorage.getItem('enishi'))).toContain(ssid);
    await page.goto('/news');
    await page.waitForURL('**/enter');
    await page.context().close();
  });
});

describe('the public pages', () => {
  test('the application form shows each missing-field message, then 送信しました', async () => {
    const page = await freshPage();
    await page.goto('/enter');
    await page.getByRole('link', { name: ja.enter.female }).click();
    await page.waitForURL('**/intro/female');
    await page.getByText(jaIntro.femaleAge).first().waitFor();
    const submit = page.getByRole('button', { name: jaIntro.submit });
    await submit.click();
    for (const message of [
      jaIntro.nameRequired,
      jaIntro.ageRequired,
      jaIntro.emailRequired,
      jaIntro.telRequired,
    ]) {
      await page.getByText(message, { exact: true }).waitFor();
    }
    await page.getByLabel(jaIntro.name).fill('田中 由美');
    await submit.click();
    expect(await page.getByText(jaIntro.nameRequired, { exact: true }).count()).toBe(0);
    await page.getByText(jaIntro.ageRequired, { exact: true }).waitFor();
    await page.getByLabel(jaIntro.age).fill('27');
    await page.getByLabel(jaIntro.email).fill('yumi@example.jp');
    await page.getByLabel(jaIntro.tel).fill('090-1234-5678');
    await submit.click();
    await page.getByRole('heading', { name: jaIntro.sent }).waitFor();
    await page.context().close();
  });

  test('logging in while offline shows 接続できませんでした。', async () => {
    const page = await freshPage();
    await page.goto('/login');
    await page.getByLabel(ja.login.id, { exact: true }).fill('man-e2e');
    await page.getByLabel(ja.login.password, { exact: true }).fill('Man-pass.1');
    await page.context().setOffline(true);
    await page.getByRole('button', { name: ja.login.submit, exact: true }).click();
    await page.getByRole('status').getByText(ja.errors.offline).waitFor();
    expect(new URL(page.url()).pathname).toBe('/login');
    await page.context().close();
  });

  test('a wrong password shows the server message and stays on login', async () => {
    const page = await freshPage();
    await page.goto('/login');
    await page.getByText(ja.login.note).waitFor();
    await page.getByLabel(ja.login.id, { exact: true }).fill('man-e2e');
    await page.getByLabel(ja.login.password, { exact: true }).fill('wrong-pass');
    await page.getByRole('button', { name: ja.login.submit, exact: true }).click();
    await page.getByRole('status').getByText(ja.errors.loginFailed).waitFor();
    expect(new URL(page.url()).pathname).toBe('/login');
    await page.context().close();
  });
});
