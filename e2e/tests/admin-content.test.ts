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
  searchUsers,
  toast,
  uniqueTag,
  userCount,
  type Account,
} from '../lib/admin.js';

// What staff make for members: group talks, news, ad banners and bulk sends, each seen from both sides.
const { loggedIn } = phonesPerTest();

/** On a group pick screen: search by the tag, choose the member, and take them into the group. */
async function pickForGroup(page: Page, list: string, tag: string, name: string): Promise<void> {
  await searchUsers(page, tag);
  await userCount(page, 1).waitFor();
  await page.getByRole('radiogroup', { name: list }).getByRole('radio', { name, exact: true }).check();
  await page.getByRole('button', { name: jaMember.groups.choose, exact: true }).click();
  await page.waitForURL('**/managegroup/select');
}

describe('group talks', () => {
  test('staff make a group of a new man and a new woman; both see it in /strooms, staff in /talkrooms', async () => {
    const staff = await loggedIn('staff');
    const tag = uniqueTag();
    const man: Account = { id: `gm-${tag}`, password: 'Group-man.1', name: `石川 健二${tag}` };
    const woman: Account = { id: `gw-${tag}`, password: 'Group-woman.1', name: `森 美咲${tag}` };
    await createMember(staff, { ...man, role: 101, rank: 1 });
    await createMember(staff, { ...woman, role: 201 });
    // The man's given name and the woman's.
    const groupName = `健二${tag}美咲${tag}`;
    const menList = jaMember.members.listLabel(jaMember.members.kinds.men);
    const womenList = jaMember.members.listLabel(jaMember.members.kinds.women);

    await openFromHomeMenu(staff, ja.menu.addGroup);
    await staff.waitForURL('**/managegroup');
    const manSlot = staff.getByRole('listitem', { name: jaMember.groups.man, exact: true });
    const womanSlot = staff.getByRole('listitem', { name: jaMember.groups.woman, exact: true });
    const register = staff.getByRole('link', { name: jaMember.groups.register, exact: true });

    await staff.getByRole('link', { name: jaMember.groups.chooseMan, exact: true }).click();
    await staff.waitForURL('**/managegroup/men');
    await pickForGroup(staff, menList, tag, man.name);
    await manSlot.getByText(man.name, { exact: true }).waitFor();
    await womanSlot.getByText(jaMember.groups.notChosen, { exact: true }).waitFor();
    // Only one side chosen: nothing to register yet.
    expect(await register.count()).toBe(0);

    // 最初からやり直す forgets the choice.
    await staff.getByRole('button', { name: jaMember.groups.startOver, exact: true }).click();
    await staff.waitForURL('**/managegroup');
    await manSlot.getByText(jaMember.groups.notChosen, { exact: true }).waitFor();

    // This time the woman first, then the man from the selection screen.
    await staff.getByRole('link', { name: jaMember.groups.chooseWoman, exact: true }).click();
    await staff.waitForURL('**/managegroup/women');
    await pickForGroup(staff, womenList, tag, woman.name);
    await manSlot.getByText(jaMember.groups.notChosen, { exact: true }).waitFor();
    expect(await register.count()).toBe(0);
    await manSlot.getByRole('link', { name: jaMember.groups.chooseMan, exact: true }).click();
    await staff.waitForURL('**/managegroup/men');
    await pickForGroup(staff, menList, tag, man.name);
    await manSlot.getByText(man.name, { exact: true }).waitFor();
    await womanSlot.getByText(woman.name, { exact: true }).waitFor();

    await register.click();
    await staff.waitForURL('**/managegroup/confirm');
    await staff.getByText(groupName, { exact: true }).waitFor();
    await staff.getByRole('button', { name: jaMember.groups.submit, exact: true }).click();
    await toast(staff, jaMember.groups.registered).waitFor();
    await staff.waitForURL(isHome);

    for (const member of [man, woman]) {
      const page = await loggedIn(member);
      await page.goto('/strooms');
      const room = page.getByRole('list', { name: ja.talk.roomList }).getByRole('link', { name: groupName });
      await room.waitFor();
      expect(await page.getByRole('list', { name: ja.talk.roomList }).getByRole('link').count()).toBe(1);
      await room.click();
      await page.waitForURL(/\/talk\/\d+$/);
      await page.getByRole('log', { name: ja.talk.timeline }).waitFor();
    }

    await staff.goto('/talkrooms');
    await staff
      .getByRole('list', { name: ja.talk.roomList })
      .getByRole('link', { name: groupName })
      .waitFor();
  });
});

describe('news', () => {
  test("men's news with two images reaches men, not women, and is gone once deleted", async () => {
    const staff = await loggedIn('staff');
    const tag = uniqueTag();
    const reader: Account = { id: `nm-${tag}`, password: 'News-man.1', name: `小林 誠${tag}` };
    const other: Account = { id: `nw-${tag}`, password: 'News-woman.1', name: `高田 愛${tag}` };
    await createMember(staff, { ...reader, role: 101, rank: 1 });
    await createMember(staff, { ...other, role: 201 });
    const title = `春の交流会のお知らせ ${tag}`;
    const body =
      '4月20日（土）に銀座で交流会を開催します。詳しくは https://example.jp/spring をご覧ください。';

    await openFromHomeMenu(staff, ja.menu.newsAdmin);
    await staff.waitForURL('**/news/menu');
    await staff.getByRole('link', { name: jaMember.news.men, exact: true }).click();
    await staff.waitForURL('**/news/men/list');
    await staff.getByRole('link', { name: jaMember.news.add, exact: true }).click();
    await staff.waitForURL('**/news/men/add');

    const confirm = staff.getByRole('button', { name: jaMember.news.confirm, exact: true });
    await confirm.click();
    await staff.getByText(jaMember.news.titleRequired, { exact: true }).waitFor();
    await staff.getByRole('textbox', { name: jaMember.news.titleLabel }).fill(title);
    await staff.getByRole('textbox', { name: jaMember.news.bodyLabel }).fill(body);
    await staff
      .getByLabel(jaMember.news.addImage)
      .setInputFiles([
        await picture('venue.jpg', 800, 600, { r: 200, g: 120, b: 80 }),
        await picture('map.png', 600, 600, { r: 60, g: 120, b: 200 }),
        await picture('extra.png', 300, 200, { r: 90, g: 90, b: 90 }),
      ]);
    // Three chosen, the third taken out again.
    await staff.getByRole('checkbox', { name: jaMember.news.selectImage(3) }).check();
    await staff.getByRole('button', { name: jaMember.news.deleteImage }).click();
    await staff.getByRole('checkbox', { name: jaMember.news.selectImage(3) }).waitFor({ state: 'detached' });
    await staff.getByRole('checkbox', { name: jaMember.news.selectImage(2) }).waitFor();

    await confirm.click();
    await staff.getByRole('heading', { name: jaMember.news.confirmTitle }).waitFor();
    await staff.getByText(title, { exact: true }).waitFor();
    await staff.getByRole('img', { name: jaMember.news.imageAlt(title, 2) }).waitFor();
    expect(await staff.getByRole('img', { name: jaMember.news.imageAlt(title, 3) }).count()).toBe(0);
    await staff.getByRole('button', { name: jaMember.news.save, exact: true }).click();
    await toast(staff, jaMember.news.savedMen).waitFor();
    await staff.waitForURL('**/news/men/list');
    const item = staff.getByRole('radio', { name: title });
    await item.waitFor();

    // A man sees it with both images.
    const man = await loggedIn(reader);
    await man.goto('/news');
    const article = man.getByRole('list', { name: jaMember.news.feed }).getByRole('article', { name: title });
    await article.waitFor();
    await article.getByText('4月20日（土）に銀座で交流会を開催します。', { exact: false }).waitFor();
    for (const n of [1, 2]) {
      const image = article.getByRole('img', { name: jaMember.news.imageAlt(title, n) });
      await image.waitFor();
      await expect.poll(() => imageLoaded(image), { timeout: 10_000 }).toBe(true);
    }
    expect(await article.getByRole('img').count()).toBe(2);

    // A woman does not.
    const woman = await loggedIn(other);
    await woman.goto('/news');
    await woman
      .getByRole('list', { name: jaMember.news.feed })
      .or(woman.getByText(jaMember.news.empty, { exact: true }))
      .waitFor();
    expect(await woman.getByRole('heading', { name: title }).count()).toBe(0);

    // Deleted by staff, it is gone for the man too.
    await item.check();
    await staff.getByRole('button', { name: jaMember.news.delete, exact: true }).click();
    const dialog = staff.getByRole('alertdialog', { name: jaMember.news.deleteConfirm });
    await dialog.getByRole('button', { name: jaMember.news.delete, exact: true }).click();
    await toast(staff, jaMember.news.deleted).waitFor();
    await item.waitFor({ state: 'detached' });
    await man.reload();
    await man
      .getByRole('list', { name: jaMember.news.feed })
      .or(man.getByText(jaMember.news.empty, { exact: true }))
      .waitFor();
    expect(await man.getByRole('heading', { name: title }).count()).toBe(0);
  });
});

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
    await expect.poll(() => imageLoaded(link.getByRole('img')), { timeout: 10_000 }).toBe(true);

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
    await expect.poll(() => imageLoaded(photo.locator('img')), { timeout: 10_000 }).toBe(true);
    expect(man.url()).toBe(talkUrl);
    expect(await man.evaluate(() => (window as unknown as { stillOpen?: boolean }).stillOpen)).toBe(true);
  });
});
