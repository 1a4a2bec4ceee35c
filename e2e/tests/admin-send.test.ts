import { describe, expect, test } from 'vitest';
import type { Page } from 'playwright-core';
import { ja, jaMember } from '@enishi/contract';
import { people } from '../lib/users.js';
import {
  createMember,
  escapeRegExp,
  imageLoaded,
  isHome,
  openFromHomeMenu,
  phonesPerTest,
  picture,
  toast,
  uniqueTag,
  type Account,
} from '../lib/admin.js';

// What staff send to members: ad banners and bulk sends, each seen from both sides (group talks and news:
// admin-content.test.ts).
const { loggedIn } = phonesPerTest();

describe('ad banners', () => {
  /**
   * A member's home once its banners came: the banner link to `url` (広告バナーn（新しいタブで開きます）) and
   * whether the server's answer had it at all, so that "not shown" cannot be a screen still loading.
   */
  async function homeBanner(page: Page, url: string) {
    const banners = page.waitForResponse((reply) => reply.url().endsWith('/api/banner/get'));
    await page.goto('/');
    const reply = await banners;
    expect(reply.ok()).toBe(true);
    const { rows } = (await reply.json()) as { rows: { url: string }[] };
    await page.getByRole('navigation', { name: ja.home.menuLabel }).waitFor();
    const link = page
      .getByRole('region', { name: ja.home.banners })
      .getByRole('link', { name: new RegExp(`^広告バナー\\d+\\s?${escapeRegExp(jaMember.banners.newTab)}$`) })
      .and(page.locator(`a[href="${url}"]`));
    return { link, sent: rows.some((row) => row.url === url) };
  }

  test("a men's banner shows on a man's home only, until it is deleted", async () => {
    const staff = await loggedIn('staff');
    const tag = uniqueTag();
    const reader: Account = { id: `bm-${tag}`, password: 'Banner-man.1', name: `岡田 拓${tag}` };
    const other: Account = { id: `bw-${tag}`, password: 'Banner-woman.1', name: `松本 結${tag}` };
    await createMember(staff, { ...reader, role: 101, rank: 1 });
    await createMember(staff, { ...other, role: 201 });
    const url = `https://example.jp/campaign/${tag}`;

    await openFromHomeMenu(staff, ja.menu.bannerAdmin);
    await staff.waitForURL('**/managead');
    const section = staff.getByRole('region', { name: jaMember.banners.men });
    const confirm = section.getByRole('button', {
      name: `${jaMember.banners.confirm}（${jaMember.banners.men}）`,
    });
    await section.getByText(jaMember.banners.sizeNote).waitFor();
    // Nothing to confirm yet.
    expect(await confirm.count()).toBe(0);
    await section.getByRole('textbox', { name: jaMember.banners.url }).fill(url);
    await section
      .getByLabel(`${jaMember.banners.chooseImage}（${jaMember.banners.men}）`)
      .setInputFiles(await picture('banner.png', 1200, 340, { r: 30, g: 60, b: 110 }));
    await confirm.click();
    await section.getByRole('heading', { name: jaMember.banners.confirmTitle }).waitFor();
    await section.getByRole('img', { name: jaMember.banners.toAdd }).waitFor();
    await section.getByText(url, { exact: true }).waitFor();
    await section.getByRole('button', { name: jaMember.banners.run, exact: true }).click();
    await toast(staff, jaMember.banners.added).waitFor();
    const row = section.getByRole('listitem').filter({ hasText: url });
    await row.getByRole('img', { name: /^広告バナー\d+$/ }).waitFor();

    const man = await loggedIn(reader);
    const { link, sent } = await homeBanner(man, url);
    expect(sent).toBe(true);
    await link.waitFor();
    expect(await link.getAttribute('target')).toBe('_blank');
    await expect.poll(() => imageLoaded(link.getByRole('img'))).toBe(true);

    const woman = await loggedIn(other);
    const forWoman = await homeBanner(woman, url);
    expect(forWoman.sent).toBe(false);
    expect(await forWoman.link.count()).toBe(0);

    // Marked for deletion, confirmed, and gone.
    await row.getByRole('checkbox', { name: /^バナー\d+を削除する$/ }).check();
    await confirm.click();
    await section.getByRole('img', { name: jaMember.banners.toDelete }).waitFor();
    await section.getByRole('button', { name: jaMember.banners.run, exact: true }).click();
    await toast(staff, jaMember.banners.deleted).waitFor();
    await section.getByRole('textbox', { name: jaMember.banners.url }).waitFor();
    expect(await row.count()).toBe(0);
    const afterDelete = await homeBanner(man, url);
    expect(afterDelete.sent).toBe(false);
    expect(await afterDelete.link.count()).toBe(0);
  });
});

describe('bulk send', () => {
  test('a bulk send to platinum men arrives live in an open talk', async () => {
    const staff = await loggedIn('staff');
    const tag = uniqueTag();
    const platinum: Account = { id: `pm-${tag}`, password: 'Platinum.1', name: `藤井 翔${tag}` };
    const general: Account = { id: `rm-${tag}`, password: 'General.1', name: `村上 大輔${tag}` };
    await createMember(staff, { ...platinum, role: 101, rank: 2 });
    await createMember(staff, { ...general, role: 101, rank: 1 });
    const text = `プラチナ会員様限定のご案内です ${tag}`;

    // The platinum man has his talk with staff open.
    const man = await loggedIn(platinum);
    await man.goto('/talkrooms/staff');
    await man.waitForURL(/\/talk\/staff\/\d+$/);
    const timeline = man.getByRole('log', { name: ja.talk.timeline });
    await timeline.waitFor();
    const talkUrl = man.url();
    await man.evaluate(() => {
      (window as unknown as { stillOpen: boolean }).stillOpen = true;
    });

    await openFromHomeMenu(staff, ja.menu.sendMen);
    await staff.waitForURL('**/men/send');
    await staff.getByRole('checkbox', { name: general.name }).waitFor();
    await staff
      .getByRole('combobox', { name: jaMember.broadcast.rankFilter })
      .selectOption({ label: ja.ranks[2]! });
    await staff.getByRole('checkbox', { name: platinum.name }).waitFor();
    await staff.getByRole('checkbox', { name: people.man.name }).waitFor();
    expect(await staff.getByRole('checkbox', { name: general.name }).count()).toBe(0);
    const shown = await staff.getByRole('checkbox').count();
    expect(await staff.getByRole('checkbox', { name: ja.ranks[2] }).count()).toBe(shown);

    await staff.getByRole('status').getByText(jaMember.broadcast.selected(0), { exact: true }).waitFor();
    await staff.getByRole('button', { name: jaMember.broadcast.selectAll, exact: true }).click();
    await staff.getByRole('status').getByText(jaMember.broadcast.selected(shown), { exact: true }).waitFor();
    expect(await staff.getByRole('checkbox', { name: platinum.name }).isChecked()).toBe(true);
    await staff.getByRole('link', { name: jaMember.broadcast.next, exact: true }).click();
    await staff.waitForURL('**/men/send/form');

    await staff.getByText(jaMember.broadcast.recipients(shown), { exact: true }).waitFor();
    await staff.getByRole('textbox', { name: jaMember.broadcast.message }).fill(text);
    await staff
      .getByLabel(jaMember.broadcast.addImage)
      .setInputFiles(await picture('lounge.jpg', 900, 600, { r: 150, g: 110, b: 60 }));
    await staff
      .getByRole('list', { name: ja.talk.selectedImages })
      .getByRole('button', { name: ja.talk.removeImage.replace('{n}', '1') })
      .waitFor();
    await staff.getByRole('button', { name: jaMember.broadcast.send, exact: true }).click();
    const dialog = staff.getByRole('alertdialog', { name: jaMember.broadcast.sendConfirm(shown) });
    await dialog.getByRole('button', { name: jaMember.broadcast.send, exact: true }).click();
    await toast(staff, jaMember.broadcast.sentMen).waitFor();
    await staff.waitForURL(isHome);

    // It arrives in the open talk, picture and all, without a reload.
    const message = timeline.getByRole('article').filter({ hasText: text });
    await message.waitFor();
    const photo = message.getByRole('button', { name: ja.talk.viewImage });
    await photo.waitFor();
    await expect.poll(() => imageLoaded(photo.locator('img'))).toBe(true);
    expect(man.url()).toBe(talkUrl);
    expect(await man.evaluate(() => (window as unknown as { stillOpen?: boolean }).stillOpen)).toBe(true);
  });
});
