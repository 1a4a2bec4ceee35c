import { describe, expect, test } from 'vitest';
import type { Page } from 'playwright-core';
import { ja, jaMember } from '@enishi/contract';
import { axeViolations } from '../lib/axe.js';
import {
  COMMENT_TEXTS,
  TIMELINE,
  commentBoxProblems,
  measureCommentBox,
  type CommentBoxMeasure,
} from '../lib/comment-box.js';
import { createMember, phonesPerTest, picture, sessionId, uniqueTag } from '../lib/admin.js';
import { drawnWhole, openScreen } from '../lib/screens.js';
import { inject } from '../lib/suite.js';
import { composer, sendComment } from '../lib/talk.js';
import { people } from '../lib/users.js';
import { photograph } from '../lib/photograph.js';

/*
 * The members' phone app, round three (issue 47): the comment box at phone widths with any text, a woman's page
 * that leads to its action, the app opened at a wrong address, and axe on every member screen at 390 px.
 * Its photographs go to e2e/screenshots/ (lib/photograph.ts).
 */

const { loggedIn } = phonesPerTest();

/** The comment box measured in the page (lib/comment-box.ts). */
const measure = (page: Page) => page.evaluate<CommentBoxMeasure>(`(() => {${measureCommentBox}})()`);

async function openDesk(page: Page): Promise<void> {
  await page.goto('/talkrooms/staff');
  await page.waitForURL(/\/talk\/staff\/\d+$/);
  await composer(page).waitFor();
  await page.locator(TIMELINE).waitFor();
}

describe('the comment box', () => {
  test('stays on a 320, 375 and 390 px screen with a URL, 200 笑, 60 あ or mixed text; bubbles wrap too', async () => {
    const page = await loggedIn('man');
    await openDesk(page);
    const found: string[] = [];
    for (const width of [320, 375, 390]) {
      await page.setViewportSize({ width, height: 844 });
      for (const [name, text] of Object.entries(COMMENT_TEXTS)) {
        await composer(page).fill(text);
        const m = await measure(page);
        found.push(...commentBoxProblems(m).map((problem) => `${width} ${name}: ${problem}`));
        if (name === 'laugh' && width === 320 && !m.boxScrolls)
          found.push('320 laugh: 200 笑 should fill the box to its cap and scroll inside');
        if (name === 'url' && width === 390) await photograph(page, 'comment-box-url-390.png');
      }
      await composer(page).fill('');
    }
    expect(found).toEqual([]);

    // The URL sent: its bubble wraps within the screen.
    await page.setViewportSize({ width: 390, height: 844 });
    const bubble = await sendComment(page, COMMENT_TEXTS.url!);
    const right = await bubble.evaluate((row) => {
      const text = row.querySelector('.msg__bubble') ?? row;
      return text.getBoundingClientRect().right;
    });
    expect(right).toBeLessThanOrEqual(390);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await photograph(page, 'talk-url-bubble-390.png');
  });
});

describe("a woman's page", () => {
  test('shows セッティングを依頼する in the first screen, steps through photos by keyboard, and goes back to the list as it was', async () => {
    const staff = await loggedIn('staff');
    const tag = uniqueTag().slice(-5);
    const name = `美咲${tag}`;
    const uid = await createMember(staff, {
      id: `wr${tag}`,
      name: `森 ${name}`,
      password: 'Woman-pass.1',
      role: 201,
    });
    const ssid = await sessionId(staff);
    const profile = {
      nickname: name,
      birth_date: '1996-05-05',
      height: 160,
      area: 1,
      women_rank: 4,
      pr: '読書と旅行が好きです。'.repeat(6),
    };
    expect((await staff.request.post('/api/profile/update', { data: { ssid, uid, profile } })).ok()).toBe(
      true,
    );
    for (const [index, colour] of [
      { r: 230, g: 190, b: 200 },
      { r: 190, g: 210, b: 230 },
      { r: 210, g: 230, b: 190 },
    ].entries()) {
      const photo = await picture(`p${index}.jpg`, 600, 800, colour);
      const image = `data:image/jpeg;base64,${photo.buffer.toString('base64')}`;
      expect((await staff.request.post('/api/profile/photo/add', { data: { ssid, uid, image } })).ok()).toBe(
        true,
      );
    }

    const man = await loggedIn('man');
    await man.setViewportSize({ width: 390, height: 844 });
    await man.getByRole('link', { name: ja.footer.member }).click();
    await man.waitForURL('**/member');
    // A filter in the address, and the list scrolled: both must come back.
    await man.goto(`/member?q=${encodeURIComponent(JSON.stringify({ age_min: 20 }))}`);
    const card = man.getByRole('link', { name: new RegExp(name) });
    await card.waitFor();
    await card.evaluate((element) => element.scrollIntoView({ block: 'end' }));
    const listScroll = await man.evaluate(() => scrollY);
    await card.click();
    await man.waitForURL(`**/member/${uid}`);

    const ask = man.getByRole('button', { name: jaMember.setting.open });
    await ask.waitFor();
    await man.evaluate(() => scrollTo(0, 0));
    // In the first screen, and the button itself is what is there (not the footer over it).
    const reachable = await ask.evaluate((button) => {
      const r = button.getBoundingClientRect();
      const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
      return r.bottom <= innerHeight && r.top >= 0 && !!hit && button.contains(hit);
    });
    expect(reachable).toBe(true);
    await photograph(man, 'woman-page-390.png');
    // It stays while the profile scrolls.
    await man.mouse.wheel(0, 600);
    await expect.poll(() => man.evaluate(() => scrollY)).toBeGreaterThan(0);
    expect(await ask.evaluate((button) => button.getBoundingClientRect().bottom <= innerHeight)).toBe(true);

    // The photo strip by keyboard.
    const strip = man.getByRole('region', { name: jaMember.women.photos(name) });
    await strip.focus();
    await man.keyboard.press('ArrowRight');
    await man.getByText(jaMember.women.photoCount(2, 3)).waitFor();
    await expect.poll(() => strip.evaluate((element) => element.scrollLeft)).toBeGreaterThan(100);
    await man.getByRole('button', { name: jaMember.women.nextPhoto }).click();
    await man.getByText(jaMember.women.photoCount(3, 3)).waitFor();
    await man.keyboard.press('ArrowLeft');

    // Back: the list with its filter and where it was scrolled.
    await man.getByRole('button', { name: jaMember.women.backToList }).click();
    await man.waitForURL((url) => url.pathname === '/member' && url.searchParams.has('q'));
    await card.waitFor();
    await expect.poll(() => man.evaluate(() => scrollY)).toBeGreaterThan(listScroll - 40);
  });
});

describe('an app opened at another address', () => {
  test('names the right address instead of promising a reconnect', async () => {
    const page = await loggedIn('woman');
    const right = inject('baseURL');
    const wrong = right.replace('127.0.0.1', 'localhost');
    // Logged in at the wrong address (its own storage), as a member who typed it would.
    await page.goto(`${wrong}/login`);
    await page.getByLabel(ja.login.id, { exact: true }).fill(people.woman.id);
    await page.getByLabel(ja.login.password, { exact: true }).fill(people.woman.password);
    await page.getByRole('button', { name: ja.login.submit, exact: true }).click();
    await page.waitForURL('**/mypage');
    await page.goto(`${wrong}/talkrooms/staff`);
    const notice = page.getByRole('alert').filter({ hasText: jaMember.wrongAddress.notice(right) });
    await notice.waitFor({ timeout: 20_000 });
    expect(await page.getByText(ja.talk.socketFailed).count()).toBe(0);
    expect(await notice.getByRole('link', { name: jaMember.wrongAddress.open }).getAttribute('href')).toMatch(
      new RegExp(`^${right.replace(/[.]/g, '\\.')}/`),
    );
    await photograph(page, 'wrong-address-390.png');
  });
});

/** The member screens, as the path after login; each checked with axe at 390 px. */
const MAN_SCREENS = [
  '/',
  '/talkrooms/staff',
  '/strooms',
  '/news',
  '/member',
  '/mypage',
  '/mypage/profile',
  '/setting/history',
  '/contact',
  '/course',
  '/security',
];
const WOMAN_SCREENS = [
  '/',
  '/talkrooms/staff',
  '/strooms',
  '/news',
  '/mypage',
  '/mypage/profile',
  '/setting/history',
  '/security',
];
const PUBLIC_SCREENS = ['/login', '/enter', '/intro/male', '/intro/female'];

/** Also the rule that a control's name starts with its visible text (off in axe by default). */
const AXE = { alsoRules: ['label-content-name-mismatch'] };

/**
 * axe on `path` once drawn whole. A member's screen is opened inside the app (lib/screens.ts), as he moves
 * between screens; a public page is a document of its own (prerendered), so it is loaded.
 */
async function settledAxe(page: Page, path: string, inApp: boolean): Promise<string[]> {
  if (inApp) await openScreen(page, path);
  else await page.goto(path);
  await page.locator('h1').first().waitFor();
  await drawnWhole(page);
  return (await axeViolations(page, AXE)).map((line) => `${path}: ${line}`);
}

/** axe on each path; the count per screen printed for the record. */
async function axeAll(page: Page, who: string, paths: string[]): Promise<string[]> {
  const found: string[] = [];
  const counts: Record<string, number> = {};
  for (const path of paths) {
    const lines = await settledAxe(page, path, who !== 'public');
    counts[path] = lines.length;
    found.push(...lines);
  }
  console.log(`axe violations per screen (${who})`, counts);
  return found;
}

describe('axe on every member screen at 390 px', () => {
  test('finds nothing on a man’s screens, a woman’s profile page among them', async () => {
    const man = await loggedIn('man');
    await man.setViewportSize({ width: 390, height: 844 });
    const found = await axeAll(man, 'man', MAN_SCREENS);
    // The footer's 会員サイト opens a screen of that title (no member site configured here: the women's list).
    await man.getByRole('link', { name: ja.footer.member }).click();
    await man.getByRole('heading', { level: 1, name: ja.screens.member }).waitFor({ timeout: 5000 });
    await man.locator('.woman-card__link').first().click();
    await man.getByRole('button', { name: jaMember.setting.open }).waitFor();
    const lines = await axeViolations(man, AXE);
    console.log('axe violations (man /member/{id})', lines.length);
    expect([...found, ...lines]).toEqual([]);
  }, 240_000);

  test('finds nothing on a woman’s screens, news unread for her', async () => {
    const staff = await loggedIn('staff');
    const news = await staff.request.post('/api/news/add', {
      data: {
        ssid: await sessionId(staff),
        title: `axe ${uniqueTag()}`,
        body: '未読の印',
        type: 2,
        images: [],
      },
    });
    expect(news.ok()).toBe(true);
    const woman = await loggedIn('woman');
    await woman.setViewportSize({ width: 390, height: 844 });
    expect(await axeAll(woman, 'woman', WOMAN_SCREENS)).toEqual([]);
  }, 240_000);

  test('finds nothing on the login and public pages', async () => {
    const page = await loggedIn('woman');
    await page.setViewportSize({ width: 390, height: 844 });
    await page.evaluate(() => localStorage.clear());
    expect(await axeAll(page, 'public', PUBLIC_SCREENS)).toEqual([]);
  }, 240_000);
});
