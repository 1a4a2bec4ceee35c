import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { inject } from '../lib/suite.js';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { ja, jaMember } from '@enishi/contract';
import { createMember, sessionId, uniqueTag } from '../lib/admin.js';
import { launchBrowser, logIn, newPhone } from '../lib/browser.js';
import { axeViolations } from '../lib/axe.js';
import { checkScreen, desk, keyboardProblems, phone390, settled, type OfficePages } from '../lib/screens.js';
import { people } from '../lib/users.js';
import { photograph } from '../lib/photograph.js';

/*
 * Every screen of the staff back office (product.md §2.8), as the owner: each opened at 1440 px, checked with
 * axe (nothing found) and photographed at 1440 and 390 px (e2e/screenshots/office-<name>-*.png). The edit
 * screens open records this file makes through the app's own API. back-office.test.ts works the screens;
 * this file only looks at them.
 */

let browser: Browser;
const pages = {} as OfficePages;
const contexts: BrowserContext[] = [];
const tag = uniqueTag();
const records = { man: 0, woman: 0, staff: 0, menNews: 0, womenNews: 0, talk: 0 };

async function loggedIn(viewport: { width: number; height: number }): Promise<Page> {
  const context = await newPhone(browser, viewport);
  contexts.push(context);
  const page = await context.newPage();
  await logIn(page, 'owner');
  return page;
}

/** POST /api/<path> with the owner's session, as the app would; the reply's JSON. */
async function call<T>(path: string, data: Record<string, unknown>): Promise<T> {
  const reply = await pages.desk.request.post(`/api/${path}`, {
    data: { ssid: await sessionId(pages.desk), ...data },
  });
  expect(reply.status(), `${path}: ${await reply.text()}`).toBe(200);
  return (await reply.json()) as T;
}

const addNews = async (type: 1 | 2) =>
  (await call<{ id: number }>('news/add', { type, title: `画面確認 ${tag}`, body: '本文です。', images: [] }))
    .id;

beforeAll(async () => {
  browser = await launchBrowser();
  [pages.desk, pages.phone] = await Promise.all([loggedIn(desk), loggedIn(phone390)]);
  const account = (role: 101 | 201 | 3, name: string, name_kana: string) => ({
    id: `screens-${role}-${tag}`,
    password: 'Screens-pass.1',
    name,
    name_kana,
    role: role as 101 | 201,
  });
  // With readings (product.md §5.7), which the tables and pickers show under the names.
  records.man = await createMember(pages.desk, {
    ...account(101, '画面確認 男性', 'がめんかくにん だんせい'),
    rank: 2,
  });
  records.woman = await createMember(pages.desk, account(201, '画面確認 女性', 'ガメンカクニン ジョセイ'));
  records.staff = await createMember(pages.desk, account(3, '画面確認 スタッフ', 'がめんかくにん すたっふ'));
  records.menNews = await addNews(1);
  records.womenNews = await addNews(2);
  const rooms = await call<{ rows: { id: number }[] }>('conversations', { type: 'men', search: '', page: 0 });
  records.talk = rooms.rows[0]?.id ?? 0;
  // Group registration's confirm screen shows the man and the woman chosen on the screens before it.
  const uids = inject('uids');
  await Promise.all(
    Object.values(pages).map((page) =>
      page.evaluate(
        ([man, woman]) => {
          const stored = JSON.parse(localStorage.getItem('enishi') ?? '{}') as { session?: { uid?: number } };
          sessionStorage.setItem(
            'enishi.group-selection',
            JSON.stringify({ by: stored.session?.uid ?? 0, man, woman }),
          );
        },
        [
          { uid: uids[people.man.id], id: people.man.id, name: people.man.name },
          { uid: uids[people.woman.id], id: people.woman.id, name: people.woman.name },
        ] as const,
      ),
    ),
  );
});
afterAll(async () => {
  for (const context of contexts) await context.close();
  await browser?.close();
});

/** The screen's own heading (level 1; at a desk some are for screen readers only). */
const heading = (title: string) => (page: Page) =>
  page.getByRole('heading', { level: 1, name: title, exact: true }).waitFor({ state: 'attached' });

/** A screen; `keys`: also walked with Tab alone at 1440 px (one of each kind of screen: lists, forms, boards). */
type Screen = { name: string; path: () => string; ready: (page: Page) => Promise<unknown>; keys?: boolean };
const screen = (
  name: string,
  path: string | (() => string),
  title: string,
  { keys = false }: { keys?: boolean } = {},
): Screen => ({
  name,
  path: typeof path === 'string' ? () => path : path,
  ready: heading(title),
  keys,
});

const s = ja.screens;
const screens: Record<string, Screen[]> = {
  'the desk and the talk lists': [
    {
      name: 'desk',
      path: () => '/',
      ready: (page) => page.getByRole('heading', { level: 1 }).first().waitFor({ state: 'attached' }),
    },
    screen('talkrooms', '/talkrooms', s.talkrooms),
    screen('talkrooms-setting', '/talkrooms/setting', s.talkroomsSetting),
    screen('talkrooms-men', '/talkrooms/men', s.talkroomsMen, { keys: true }),
    screen('talkrooms-women', '/talkrooms/women', s.talkroomsWomen),
    screen('talkrooms-staff', '/talkrooms/staff', s.staffRooms),
    {
      name: 'talk',
      path: () => `/talk/${records.talk}`,
      ready: (page) => page.getByRole('textbox', { name: ja.talk.placeholder }).first().waitFor(),
    },
    screen('replies', '/replies', jaMember.desk.replies),
  ],
  'settings and applications': [
    screen('setting-requests', '/setting/requests', jaMember.setting.requests, { keys: true }),
    screen('setting-calendar', '/setting/requests?view=calendar', jaMember.setting.requests),
    screen('applications', '/applications', ja.menu.applications),
  ],
  'group registration': [
    screen('managegroup', '/managegroup', s.managegroup),
    screen('managegroup-men', '/managegroup/men', s.managegroupMen, { keys: true }),
    screen('managegroup-women', '/managegroup/women', s.managegroupWomen),
    screen('managegroup-select', '/managegroup/select', s.managegroupSelect),
    screen('managegroup-confirm', '/managegroup/confirm', s.managegroupConfirm),
  ],
  members: [
    screen('men-menu', '/men/menu', s.menAdmin),
    screen('menlist', '/menlist', s.menList, { keys: true }),
    screen('men-add', '/men/add', s.menAdd, { keys: true }),
    screen('men-edit', () => `/men/edit?id=${records.man}`, s.menEdit),
    screen('women-menu', '/women/menu', s.womenAdmin),
    screen('womenlist', '/womenlist', s.womenList),
    screen('managewomen', '/managewomen', s.manageWomen),
    screen('women-add', '/women/add', s.womenAdd),
    screen('women-edit', () => `/women/edit?id=${records.woman}`, s.womenEdit),
  ],
  'news, banners and bulk sends': [
    screen('news-menu', '/news/menu', s.newsAdmin),
    screen('news-men-list', '/news/men/list', s.newsMenList),
    screen('news-women-list', '/news/women/list', s.newsWomenList),
    screen('news-men-add', '/news/men/add', s.newsMenAdd),
    screen('news-men-edit', () => `/news/men/edit?id=${records.menNews}`, s.newsMenEdit, { keys: true }),
    screen('news-women-add', '/news/women/add', s.newsWomenAdd),
    screen('news-women-edit', () => `/news/women/edit?id=${records.womenNews}`, s.newsWomenEdit),
    screen('managead', '/managead', s.bannerAdmin),
    screen('stamps', '/stamps', jaMember.stampAdmin.adminTitle),
    screen('men-send', '/men/send', s.sendMen, { keys: true }),
    screen('men-send-form', '/men/send/form', s.sendMenForm, { keys: true }),
    screen('women-send', '/women/send', s.sendWomen),
    screen('women-send-form', '/women/send/form', s.sendWomenForm),
  ],
  "the owner's screens": [
    screen('staff-menu', '/staff/menu', s.staffAdmin),
    screen('staff-list', '/staff/list', s.staffList),
    screen('staff-add', '/staff/add', s.staffAdd),
    screen('staff-edit', () => `/staff/edit?id=${records.staff}`, s.staffEdit),
    screen('audit', '/staff/audit', jaMember.audit.title, { keys: true }),
    screen('staff-lists', '/staff/lists', jaMember.profile.lookups.title, { keys: true }),
    screen('profile-fields', '/staff/profile-fields', jaMember.profile.editable.title),
    screen('security', '/security', jaMember.security.title),
  ],
};

describe('every back-office screen: axe finds nothing at 1440 px, photographed at 1440 and 390 px', () => {
  for (const [group, list] of Object.entries(screens)) {
    test(group, async () => {
      for (const each of list) {
        await checkScreen(pages, each.path(), each.name, each.ready, { visit: true });
        if (each.keys) expect.soft(await keyboardProblems(pages.desk), `Tab on ${each.path()}`).toEqual([]);
      }
    });
  }
});

/** A state a screen opens into at a desk (a panel, a list box, a step, a dialog): axe, and a photograph at 1440. */
async function checkState(name: string) {
  expect.soft(await axeViolations(pages.desk), `axe on ${name}`).toEqual([]);
  await photograph(pages.desk, `office-${name}-1440.png`);
}

test('what the screens open into: the side panel, a list box, the confirm step and a dialog', async () => {
  const page = pages.desk;
  await page.goto('/menlist');
  await page.getByRole('table').getByRole('button', { name: people.man.name }).press('Enter');
  const panel = page.getByRole('complementary', { name: jaMember.table.panel(people.man.name) });
  await panel.getByRole('heading', { name: jaMember.table.settings }).waitFor();
  await settled(page);
  await checkState('menlist-panel');
  await page.keyboard.press('Escape');
  await panel.waitFor({ state: 'detached' });

  await page.goto(`/men/edit?id=${records.man}`);
  await heading(s.menEdit)(page);
  await settled(page);
  const combobox = page
    .getByRole('combobox')
    .filter({ has: page.locator('xpath=self::input') })
    .first();
  await combobox.focus();
  await combobox.press('ArrowDown');
  await page.getByRole('listbox').filter({ visible: true }).first().waitFor();
  await checkState('men-edit-combobox');
  await combobox.press('Escape');

  await page.goto(`/news/men/edit?id=${records.menNews}`);
  await heading(s.newsMenEdit)(page);
  await settled(page);
  await page.getByRole('button', { name: jaMember.news.confirm, exact: true }).click();
  await page.getByRole('heading', { name: jaMember.news.confirmTitle }).waitFor();
  await checkState('news-confirm');

  await page.goto('/news/men/list');
  await heading(s.newsMenList)(page);
  await settled(page);
  await page.getByRole('radio').first().check();
  await page.getByRole('button', { name: jaMember.news.delete, exact: true }).click();
  await page.getByRole('alertdialog').waitFor();
  await checkState('confirm-dialog');
  await page.keyboard.press('Escape');
  await page.getByRole('alertdialog').waitFor({ state: 'detached' });
});

/** What a screen shows of `text`: the text, its line-break opportunities and its `word-break`. */
async function phrasesOf(page: Page, text: string) {
  const shown = page.locator('.phrases').filter({ hasText: text }).first();
  await shown.waitFor();
  return shown.evaluate((element) => ({
    text: element.textContent,
    breaks: element.querySelectorAll('wbr').length,
    wordBreak: getComputedStyle(element).wordBreak,
  }));
}

test('staff running text breaks between phrases (BudouX), at 1440 and 390 px', async () => {
  // The staff-only sections' sentences, from their own table (lib/phrases-staff.ts), and a members' one.
  const samples: [string, string][] = [
    ['/staff/audit', jaMember.audit.lead],
    ['/replies', jaMember.cannedReplies.repliesLead],
    ['/managegroup', jaMember.groups.lead],
    ['/security', jaMember.security.lead],
  ];
  for (const page of [pages.desk, pages.phone]) {
    for (const [path, text] of samples) {
      await page.goto(path);
      const shown = await phrasesOf(page, text);
      expect
        .soft(shown, `${path} at ${page.viewportSize()?.width} px`)
        .toMatchObject({ text, wordBreak: 'keep-all' });
      expect.soft(shown.breaks, `${path}: ${text}`).toBeGreaterThan(1);
      const name = path.slice(1).replaceAll('/', '-');
      await photograph(page, `phrases-${name}-${page.viewportSize()?.width}.png`);
    }
  }
});
