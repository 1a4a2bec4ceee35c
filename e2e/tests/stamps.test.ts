import { jaMember } from '@enishi/contract';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { launchBrowser, logIn, newPhone } from '../lib/browser.js';
import { openDeskAsMember } from '../lib/desk-talk.js';
import { sendComment, timeline } from '../lib/talk.js';
import { people } from '../lib/users.js';
import { photograph } from '../lib/photograph.js';

/*
 * スタンプ (product.md §12.8) in Chromium at iPhone width: a woman picks stamps beside the comment box, they
 * are drawn large without a bubble on both sides, the desk's list says [スタンプ], the picker puts what she
 * sent last first, and staff add a set that reaches her picker. Photographed at 390 px (lib/photograph.ts).
 */

const iPhone = { width: 390, height: 844 };
const t = jaMember.stamps;
const admin = jaMember.stampAdmin;

let browser: Browser;
let member: BrowserContext;
let office: BrowserContext;
let woman: Page;
let staff: Page;

beforeAll(async () => {
  browser = await launchBrowser();
  [member, office] = await Promise.all([newPhone(browser, iPhone), newPhone(browser, iPhone)]);
  [woman, staff] = await Promise.all([member.newPage(), office.newPage()]);
  await Promise.all([logIn(woman, 'woman'), logIn(staff, 'staff')]);
  await openDeskAsMember(woman);
});
afterAll(async () => {
  await browser?.close();
});

const picker = (page: Page) => page.getByRole('dialog', { name: t.panel });

async function openPicker(page: Page) {
  await page.getByRole('button', { name: jaMember.talkLimit.stamp.open, exact: true }).click();
  await picker(page).waitFor();
  // The pictures in view drawn before anyone looks at the panel (those further down load as it scrolls).
  await expect
    .poll(
      () =>
        picker(page)
          .locator('img')
          .evaluateAll((images) =>
            images.slice(0, 8).every((image) => (image as HTMLImageElement).naturalWidth > 0),
          ),
      { timeout: 15_000 },
    )
    .toBe(true);
}

/** The words of the stamps in the picker's first section, and that section's title. */
const firstSection = (page: Page) =>
  picker(page)
    .getByRole('region')
    .first()
    .evaluate((section) => ({
      title: section.getAttribute('aria-label'),
      stamps: Array.from(section.querySelectorAll('button'), (button) => button.getAttribute('aria-label')),
    }));

/** A stored stamp (echoed, with an id) in the timeline: its picture, with its words as alternative text. */
const storedStamp = (page: Page, label: string) =>
  timeline(page).locator('article[data-message-id]').getByRole('img', { name: label, exact: true });

describe('stamps', () => {
  test('a woman sends stamps from the picker; both sides see them large, without a bubble', async () => {
    await openPicker(woman);
    await photograph(woman, 'stamp-picker-390.png');
    await picker(woman)
      .getByRole('button', { name: t.send('ありがとう') })
      .click();
    await storedStamp(woman, 'ありがとう').last().waitFor();
    expect(await picker(woman).count()).toBe(0);

    await sendComment(woman, '今日はありがとうございました');
    await openPicker(woman);
    await picker(woman)
      .getByRole('button', { name: t.send('おやすみ') })
      .first()
      .click();
    await storedStamp(woman, 'おやすみ').last().waitFor();

    // Drawn at 120 px from a 240 px picture (sharp at 2×), on no bubble.
    const drawn = await storedStamp(woman, 'おやすみ')
      .last()
      .evaluate((image) => {
        const bubble = image.closest('.msg__bubble')!;
        const style = getComputedStyle(bubble);
        return {
          width: image.getBoundingClientRect().width,
          natural: (image as HTMLImageElement).naturalWidth,
          background: style.backgroundColor,
          border: style.borderTopWidth,
        };
      });
    expect(drawn).toEqual({ width: 120, natural: 240, background: 'rgba(0, 0, 0, 0)', border: '0px' });
    await photograph(woman, 'stamp-talk-390.png');

    // The stamps she sent last come first, newest first.
    await openPicker(woman);
    const recent = await firstSection(woman);
    expect(recent.title).toBe(t.recent);
    expect(recent.stamps.slice(0, 2)).toEqual([t.send('おやすみ'), t.send('ありがとう')]);
    await photograph(woman, 'stamp-picker-recent-390.png');
    await woman.keyboard.press('Escape');
    await picker(woman).waitFor({ state: 'detached' });

    // The desk: the women's list says [スタンプ], and the talk shows the picture.
    await staff.goto('/talkrooms/women');
    const row = staff.getByRole('link', { name: people.woman.name });
    await expect.poll(() => row.textContent()).toContain(jaMember.talkLimit.stamp.preview);
    await row.click();
    await storedStamp(staff, 'おやすみ').last().waitFor();
    await photograph(staff, 'stamp-desk-talk-390.png');
  });

  test('staff add a stamp set on /stamps; it reaches the member’s picker', async () => {
    await staff.goto('/stamps');
    await staff.getByRole('heading', { name: admin.sets }).waitFor();
    const name = `季節のスタンプ ${Date.now() % 100_000}`;
    await staff.getByLabel(admin.setName).fill(name);
    const pictures = await Promise.all(
      ['#f4a3b8', '#7c8fd8'].map(async (colour, i) => ({
        name: `stamp-${i}.png`,
        mimeType: 'image/png',
        buffer: await sharp({ create: { width: 320, height: 320, channels: 4, background: colour } })
          .png()
          .toBuffer(),
      })),
    );
    await staff.locator('input[type=file]').setInputFiles(pictures);
    await staff.getByLabel(admin.label(1)).fill('さくら');
    await staff.getByLabel(admin.label(2)).fill('あじさい');
    await photograph(staff, 'stamp-admin-390.png', { fullPage: true });
    await staff.getByRole('button', { name: admin.add }).click();
    await staff.getByText(admin.added).waitFor();
    await staff.getByText(name).waitFor();

    await woman.reload();
    await timeline(woman).waitFor();
    await openPicker(woman);
    await picker(woman)
      .getByRole('region', { name })
      .getByRole('button', { name: t.send('さくら') })
      .waitFor();
  });
});
