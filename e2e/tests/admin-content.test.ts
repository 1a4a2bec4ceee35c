import { describe, expect, test } from 'vitest';
import type { Page } from 'playwright-core';
import { ja, jaMember } from '@enishi/contract';
import {
  createMember,
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

// What staff make for members: group talks and news, each seen from both sides (ad banners and bulk sends:
// admin-send.test.ts).
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
    // The man's given name and the woman's, joined with × (product.md §12.6).
    const groupName = `健二${tag}×美咲${tag}`;
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
      await expect.poll(() => imageLoaded(image)).toBe(true);
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
