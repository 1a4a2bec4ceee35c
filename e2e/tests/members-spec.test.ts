import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { DEFAULT_HOURS, deskHoursText, ja, jaMember, jaIntro } from '@enishi/contract';
import { createMember, logInAs, phonesPerTest, picture, sessionId, toast, uniqueTag } from '../lib/admin.js';
import { launchBrowser, phone } from '../lib/browser.js';
import { seedUsers, serverEnv, startServer, type RunningServer } from '../lib/server.js';
import { freePort } from '../../server/src/test/process.js';
import { photograph } from '../lib/photograph.js';

/*
 * The members' side of issue 28 (product.md §2.3, §5.8, §19.9, §19.10, §1.8): the application form checks each
 * field where it is typed, a member's own profile (editable where the owner allows, audited), the course page
 * as text, and the member site opened logged in against a local stub site, with the women's list beside it.
 */
const { loggedIn } = phonesPerTest();
const p = jaMember.profile;

async function shoot(page: Page, name: string) {
  for (const [width, height] of [
    [375, 812],
    [1440, 900],
  ] as const) {
    await page.setViewportSize({ width, height });
    await photograph(page, `${name}-${width}.png`, { fullPage: true });
  }
  await page.setViewportSize({ width: 375, height: 812 });
}

describe('forms and texts', () => {
  test('the application form checks each field where it is typed, with its own message', async () => {
    const page = await loggedIn('man');
    await page.goto('/intro/female');
    const age = page.getByLabel(jaIntro.age);
    const email = page.getByLabel(jaIntro.email);
    const tel = page.getByLabel(jaIntro.tel);
    await page.getByLabel(jaIntro.name).fill('田中 由美');
    // 17 is digits: what is wrong is her age, said as she leaves the field.
    await age.fill('17');
    await email.focus();
    await page.getByText(jaIntro.ageUnder20, { exact: true }).waitFor();
    expect(await page.getByText(jaIntro.ageInvalid, { exact: true }).count()).toBe(0);
    await email.fill('yumi@example');
    await tel.focus();
    await page.getByText(jaIntro.emailInvalid, { exact: true }).waitFor();
    await tel.fill('電話ください');
    await age.focus();
    await page.getByText(jaIntro.telInvalid, { exact: true }).waitFor();
    // Corrected, each message goes as it is typed.
    await age.fill('27');
    await expect.poll(() => page.getByText(jaIntro.ageUnder20, { exact: true }).count()).toBe(0);
    await email.fill('yumi@example.jp');
    await tel.fill('090-1234-5678');
    await page.getByRole('button', { name: jaIntro.submit }).click();
    await page.getByRole('heading', { name: jaIntro.sent }).waitFor();
    expect(await page.getByText(jaIntro.failed).count()).toBe(0);
  });

  test('the course page is text with its pictures beside it', async () => {
    const page = await loggedIn('man');
    await page.goto('/course');
    for (const course of jaMember.course.courses) {
      await page.getByRole('heading', { level: 2, name: course.name }).waitFor();
      await page.getByText(course.points[0]!, { exact: true }).waitFor();
    }
    await page.getByRole('heading', { level: 2, name: jaMember.course.flowTitle }).waitFor();
    // The club's hours as /calendar holds them (the defaults here), worded as the desk's auto-reply words them.
    await page.getByText(jaMember.course.hours(deskHoursText(DEFAULT_HOURS))).waitFor();
    // The six pictures are there, beside their words, and not read out a second time.
    const pictures = page.locator('.course-section__image');
    await expect.poll(() => pictures.count()).toBe(6);
    expect(await page.getByRole('img', { name: ja.course.image(1) }).count()).toBe(0);
    await shoot(page, 'members-course');
  });
});

describe("a member's own profile", () => {
  test('shows what the club recorded with photos; the owner decides what is editable; staff see the change', async () => {
    const owner = await loggedIn('owner');
    const tag = uniqueTag().slice(-5);
    const account = { id: `wp${tag}`, name: `小林 咲${tag}`, password: 'Woman-pass.1' };
    const uid = await createMember(owner, { ...account, role: 201 });
    const ssid = await sessionId(owner);
    const photo = await picture('photo.jpg', 240, 320, { r: 200, g: 160, b: 170 });
    const png = `data:image/jpeg;base64,${photo.buffer.toString('base64')}`;
    expect(
      (
        await owner.request.post('/api/profile/update', {
          data: { ssid, uid, profile: { height: 158, sake: 3 } },
        })
      ).ok(),
    ).toBe(true);
    expect(
      (await owner.request.post('/api/profile/photo/add', { data: { ssid, uid, image: png } })).ok(),
    ).toBe(true);

    // The owner lets members change their nickname (and nothing else).
    await owner.goto('/staff/profile-fields');
    const form = owner.getByRole('form', { name: p.editable.title });
    for (const box of await form.getByRole('checkbox', { checked: true }).all()) await box.uncheck();
    await form.getByRole('checkbox', { name: p.fields.nickname }).check();
    await form.getByRole('button', { name: p.editable.save }).click();
    await toast(owner, p.editable.saved).waitFor();

    const woman = await loggedIn(account);
    await woman.getByRole('link', { name: p.own.title }).click();
    await woman.waitForURL('**/mypage/profile');
    const profile = woman.getByRole('form', { name: p.own.title });
    await profile.getByRole('img', { name: p.photos.alt(account.name, 1) }).waitFor();
    // Read-only: what staff recorded, as text (158 cm; drinking 普通 after migration 0012's labels).
    await profile
      .locator('.own-profile__row')
      .filter({ hasText: p.fields.height })
      .getByText('158')
      .waitFor();
    await profile.locator('.own-profile__row').filter({ hasText: p.fields.sake }).getByText('普通').waitFor();
    expect(await profile.getByRole('spinbutton', { name: p.fields.height }).count()).toBe(0);
    expect(await profile.getByText(p.groups.sales).count()).toBe(0);
    await shoot(woman, 'members-own-profile');
    // Editable: the nickname.
    await profile.getByRole('textbox', { name: p.fields.nickname }).fill('さきちゃん');
    await profile.getByRole('button', { name: p.save }).click();
    await toast(woman, p.saved).waitFor();

    // Staff see her change, by her, in the audit log.
    await owner.goto('/staff/audit');
    const entry = owner
      .getByRole('listitem')
      .filter({ hasText: jaMember.audit.by(account.name) })
      .filter({ hasText: `${p.fields.nickname}${p.unset} → さきちゃん` });
    await entry.first().waitFor();
  });
});

/** A stand-in for the club's member site: a login POST (mode, login_id, password, submit), then its page. */
async function startMemberSite(): Promise<{ url: string; posts: Record<string, string>[]; server: Server }> {
  const posts: Record<string, string>[] = [];
  const server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', () => {
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      if (request.method === 'POST') {
        const fields = Object.fromEntries(new URLSearchParams(body));
        posts.push(fields);
        const ok =
          fields.mode === 'login' && fields.login_id === 'yamada' && fields.password === 'site-pass-9';
        response.end(
          ok ? `<h1>ようこそ ${fields.login_id} さん</h1>` : '<h1>IDまたはパスワードが違います</h1>',
        );
      } else response.end('<h1>会員サイト ログインしてください</h1>');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/login`, posts, server };
}

describe('the member site and the women’s list beside it', () => {
  let site: Awaited<ReturnType<typeof startMemberSite>>;
  let app: RunningServer;
  let browser: Browser;

  beforeAll(async () => {
    site = await startMemberSite();
    const env = serverEnv(await freePort(), { MEMBER_SITE_URL: site.url });
    seedUsers(env, [{ id: 'site-man', password: 'Man-pass.1', name: '山田一郎', role: 101, rank: 1 }]);
    app = await startServer(env);
    browser = await launchBrowser();
  }, 90_000);

  afterAll(async () => {
    await browser?.close();
    await app?.stop();
    site?.server.close();
  });

  test('opens logged in by the spec’s POST in the frame, keeps no password, and the list stays a tab away', async () => {
    const context = await browser.newContext({
      baseURL: app.baseURL,
      viewport: phone,
      locale: 'ja-JP',
      timezoneId: 'Asia/Tokyo',
      serviceWorkers: 'block',
    });
    await context.addInitScript('globalThis.__name = f => f');
    const page = await context.newPage();
    page.setDefaultTimeout(15_000);
    await logInAs(page, { id: 'site-man', password: 'Man-pass.1' });
    await page.goto('/member');
    const tabs = page.getByRole('navigation', { name: jaMember.memberSite.tabs });
    await tabs.getByRole('link', { name: jaMember.women.frameTitle }).waitFor();
    const frame = page.frameLocator('iframe[name="member-site"]');
    await frame.getByText('会員サイト ログインしてください').waitFor();

    const form = page.getByRole('form', { name: jaMember.memberSite.loginTitle });
    await form.getByLabel(jaMember.memberSite.loginId).fill('yamada');
    await form.getByLabel(jaMember.memberSite.password).fill('site-pass-9');
    await form.getByRole('button', { name: jaMember.memberSite.submit }).click();
    await frame.getByText('ようこそ yamada さん').waitFor();
    expect(site.posts).toEqual([
      { mode: 'login', login_id: 'yamada', password: 'site-pass-9', submit: jaMember.memberSite.submit },
    ]);
    await shoot(page, 'members-member-site');
    // The app kept nothing readable of the password.
    const kept = await page.evaluate(
      () => JSON.stringify({ ...localStorage }) + JSON.stringify({ ...sessionStorage }),
    );
    expect(kept).not.toContain('site-pass-9');

    // The women's list, favourites and setting requests stay a tab away.
    await tabs.getByRole('link', { name: jaMember.women.title }).click();
    await page.waitForURL('**/member/women');
    await page
      .getByRole('navigation', { name: jaMember.women.tabs })
      .getByRole('link', { name: jaMember.women.favorites })
      .click();
    await page.getByText(jaMember.women.noFavorites).waitFor();
    await page.getByText(jaMember.women.noFavoritesNext).waitFor();
    await context.close();
  });
});
