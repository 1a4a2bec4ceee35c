import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { jaMember, slotLabel, slotOf } from '@enishi/contract';
import { inject } from '../lib/suite.js';
import { axeViolations } from '../lib/axe.js';
import { createMember, logInAs, sessionId, toast, uniqueTag, type Account } from '../lib/admin.js';
import { launchBrowser, logIn, newPhone } from '../lib/browser.js';
import { desk, keyboardProblems, settled } from '../lib/screens.js';
import { people } from '../lib/users.js';
import { photograph } from '../lib/photograph.js';

/*
 * No double booking (product.md §18.5), in Chromium against the real server: a man sees in his form that a
 * slot meets his own confirmed setting; staff see the warning on a request of another man for the same
 * woman, confirm it only with a reason (keyboard alone, axe clean at 1440 px), and the owner's audit log
 * shows the confirmation with its reason. The settings lie 40 days ahead, away from other files' settings.
 */

const DAY = 86_400_000;
const o = jaMember.setting.overlap;
/** A Japan-time slot `days` ahead at `time`. */
const at = (days: number, time: string) =>
  `${slotOf(new Date(Date.now() + days * DAY)).slice(0, 10)}T${time}`;

let browser: Browser;
let owner: Page;
const contexts: BrowserContext[] = [];
const tag = uniqueTag();
/** Two men of this file's own, ranked as the seeded man, so that the seeded woman is one they may ask for. */
const man = (id: string, name: string): Account & { role: 101; rank: number } => ({
  id: `${id}-${tag}`,
  password: 'Double-pass.1',
  name,
  role: 101,
  rank: people.man.rank,
});
const first = man('dbl-a', '木村一郎');
const second = man('dbl-b', '中村二郎');
const pages: Record<string, Page> = {};

async function page(viewport: { width: number; height: number }) {
  const context = await newPhone(browser, viewport);
  contexts.push(context);
  return context.newPage();
}

/** A man's request for the seeded woman, over the app's own API; its id. */
async function ask(man: Page, slots: [string, string, string]): Promise<number> {
  const reply = await man.request.post('/api/setting/add', {
    data: {
      ssid: await sessionId(man),
      women_id: inject('uids')[people.woman.id],
      preferred1: slots[0],
      preferred2: slots[1],
      preferred3: slots[2],
      note: '',
    },
  });
  expect(reply.status(), await reply.text()).toBe(200);
  return ((await reply.json()) as { id: number }).id;
}

let confirmedId = 0;

beforeAll(async () => {
  browser = await launchBrowser();
  owner = await page(desk);
  await logIn(owner, 'owner');
  for (const man of [first, second]) {
    await createMember(owner, man);
    pages[man.id] = await page({ width: 375, height: 812 });
    await logInAs(pages[man.id]!, man);
  }
  // The first man's setting with the woman, confirmed at 19:00 forty days ahead.
  confirmedId = await ask(pages[first.id]!, [at(40, '19:00'), at(41, '10:00'), at(42, '10:00')]);
  const arranged = await owner.request.post('/api/setting/update', {
    data: { ssid: await sessionId(owner), id: confirmedId, status: 'arranged', slot: 1, place: '銀座' },
  });
  expect(arranged.status(), await arranged.text()).toBe(200);
});
afterAll(async () => {
  for (const context of contexts) await context.close();
  await browser?.close();
});

describe('no double booking', () => {
  test('the man reads, before sending, that a slot meets his confirmed setting', async () => {
    const man = pages[first.id]!;
    await man.goto(`/member/${inject('uids')[people.woman.id]}`);
    await man.getByRole('button', { name: jaMember.setting.open }).click();
    await man.getByLabel(jaMember.setting.preferred(1)).fill(at(40, '20:30'));
    await man.getByLabel(jaMember.setting.preferred(2)).fill(at(43, '19:00'));
    const note = man.getByRole('note', { name: o.heading });
    await note.getByText(o.own(1, slotLabel(at(40, '19:00')), people.woman.name)).waitFor();
    await note.scrollIntoViewIfNeeded();
    expect(await axeViolations(man)).toEqual([]);
    await photograph(man, 'setting-overlap-form-375.png');
  });

  test('staff see the warning, confirm only with a reason, by keyboard; the audit log keeps it', async () => {
    const id = await ask(pages[second.id]!, [at(40, '20:00'), at(44, '19:00'), at(45, '19:00')]);
    // The board, the desk's first view: the warning on the waiting card, outside its 対応する fold.
    await owner.goto('/setting/requests');
    const waiting = owner.getByRole('region', { name: /^依頼中/ });
    await waiting.getByRole('note', { name: o.heading }).first().waitFor();
    await settled(owner);
    expect(await axeViolations(owner)).toEqual([]);
    await photograph(owner, 'setting-overlap-board-1440.png');

    await owner.goto('/setting/requests?view=list');
    const card = owner.getByRole('listitem').filter({ has: owner.getByRole('link', { name: second.name }) });
    const warning = o.warning(1, people.woman.name, slotLabel(at(40, '19:00')), first.name, confirmedId);
    await card.getByRole('note', { name: o.heading }).getByText(warning).waitFor();
    await settled(owner);

    // Keyboard alone: the first slot by Space, the place, then the reason the slot asks for.
    const form = card.getByRole('form');
    await form
      .getByRole('radio', { name: new RegExp(slotLabel(at(40, '20:00')).replace(/[()]/g, '\\$&')) })
      .focus();
    await owner.keyboard.press('Space');
    await form.getByLabel(jaMember.setting.place).focus();
    await owner.keyboard.type('新宿のラウンジ');
    const anyway = form.getByRole('button', { name: o.arrangeAnyway });
    await anyway.focus();
    await owner.keyboard.press('Enter');
    await form.getByRole('alert').getByText(jaMember.setting.errors.overlapReasonRequired).waitFor();
    expect(await axeViolations(owner)).toEqual([]);
    // The list holds every waiting request of the suite's shared server, each card with its own stops: the walk
    // may take many presses before it comes round (it stops there).
    expect(await keyboardProblems(owner, 1_000)).toEqual([]);
    await card.scrollIntoViewIfNeeded();
    await photograph(owner, 'setting-overlap-staff-1440.png');

    await form.getByLabel(o.reason).focus();
    await owner.keyboard.type('ご本人から同日2件の希望');
    await anyway.focus();
    await owner.keyboard.press('Enter');
    await toast(owner, jaMember.setting.arranged).waitFor();
    const rows = await owner.request.post('/api/setting/list', {
      data: {
        ssid: await sessionId(owner),
        page: 0,
        status: 'arranged',
        member: inject('uids')[people.woman.id],
      },
    });
    const arranged = ((await rows.json()) as { rows: { id: number; slot: number }[] }).rows;
    expect(arranged.find((row) => row.id === id)?.slot).toBe(1);

    await owner.goto('/staff/audit');
    await owner.getByLabel(jaMember.audit.person, { exact: true }).fill(people.woman.name);
    await owner.getByLabel(jaMember.audit.action, { exact: true }).selectOption('update');
    await owner.getByRole('button', { name: jaMember.audit.apply }).click();
    const row = owner.locator('.audit__row').filter({ hasText: 'ご本人から同日2件の希望' });
    await row.getByText(jaMember.audit.settingOverride.action).waitFor();
    await row.getByText(`No.${confirmedId} `, { exact: false }).first().waitFor();
    await settled(owner);
    expect(await axeViolations(owner)).toEqual([]);
    await photograph(owner, 'setting-overlap-audit-1440.png');
  });
});
