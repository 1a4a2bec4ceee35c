import { describe, expect, test } from 'vitest';
import type { Page } from 'playwright-core';
import { ja, slotOf, jaMember } from '@enishi/contract';
import { createMember, phonesPerTest, sessionId, toast, uniqueTag } from '../lib/admin.js';
import { people } from '../lib/users.js';
import { photograph } from '../lib/photograph.js';

// The man's flow (browse, filter, favourite, ask for a setting) and the staff's (arrange, decline).
const { loggedIn } = phonesPerTest();

const DAY = 24 * 60 * 60 * 1000;
const day = (days: number, time: string) =>
  `${slotOf(new Date(Date.now() + days * DAY)).slice(0, 10)}T${time}`;

/** A woman with a profile, made by staff through the API. */
async function woman(staff: Page, name: string, profile: Record<string, unknown>) {
  const uid = await createMember(staff, { id: `w${uniqueTag()}`, name, password: 'Woman-pass.1', role: 201 });
  const reply = await staff.request.post('/api/profile/update', {
    data: { ssid: await sessionId(staff), uid, profile },
  });
  expect(reply.ok()).toBe(true);
  return uid;
}

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

async function askForSetting(man: Page, uid: number, offset: number) {
  await man.goto(`/member/${uid}`);
  await man.getByRole('button', { name: jaMember.setting.open }).click();
  await man.getByLabel(jaMember.setting.preferred(1)).fill(day(offset, '19:00'));
  await man.getByLabel(jaMember.setting.preferred(2)).fill(day(offset + 1, '19:00'));
  await man.getByLabel(jaMember.setting.preferred(3)).fill(day(offset + 2, '12:30'));
  await man.getByLabel(jaMember.setting.note).fill('お食事からお願いします');
  await man.getByRole('button', { name: jaMember.setting.send }).click();
  await expect.poll(() => toast(man, jaMember.setting.sent).count()).toBe(1);
}

describe("the women's list and setting requests", () => {
  test('a man browses, filters, stars and asks; staff arrange one and decline another', async () => {
    const staff = await loggedIn('staff');
    const young = `若葉${uniqueTag().slice(-4)}`;
    const older = `千秋${uniqueTag().slice(-4)}`;
    const youngId = await woman(staff, `青山 ${young}`, {
      nickname: young,
      birth_date: '2001-04-01',
      height: 162,
      area: 1,
      women_rank: 4,
      pr: '休日は美術館巡りをしています。',
    });
    const olderId = await woman(staff, `石田 ${older}`, {
      nickname: older,
      birth_date: '1989-08-20',
      height: 168,
      area: 6,
      women_rank: 3,
    });

    const man = await loggedIn('man');
    await man.getByRole('link', { name: ja.footer.member }).click();
    await man.waitForURL('**/member');
    const list = man.getByRole('list', { name: jaMember.women.title });
    await expect.poll(() => list.getByText(young).count()).toBe(1);
    await expect.poll(() => list.getByText(older).count()).toBe(1);

    // Filter: 30 and over leaves the older one only.
    await man.getByText(jaMember.women.searchOpen).click();
    await man.getByLabel(`${jaMember.women.ageRange} ${jaMember.women.min}`).selectOption('30');
    await man.getByRole('button', { name: jaMember.women.apply }).click();
    await expect.poll(() => list.getByText(young).count()).toBe(0);
    await expect.poll(() => list.getByText(older).count()).toBe(1);
    await man.getByRole('button', { name: jaMember.women.clear }).click();
    await expect.poll(() => list.getByText(young).count()).toBe(1);
    await shoot(man, 'women-list');

    // The star, and the favourites tab.
    await man.getByRole('button', { name: `${young} ${jaMember.women.favoriteOn}` }).click();
    await expect.poll(() => toast(man, jaMember.women.favoriteAdded).count()).toBe(1);
    await man.getByRole('link', { name: jaMember.women.favorites }).click();
    const favourites = man.getByRole('list', { name: jaMember.women.favorites });
    await expect.poll(() => favourites.getByText(young).count()).toBe(1);
    expect(await favourites.getByText(older).count()).toBe(0);

    // Her profile, and two setting requests (one for each woman).
    await favourites.getByRole('link', { name: new RegExp(young) }).click();
    await man.waitForURL(`**/member/${youngId}`);
    await expect.poll(() => man.getByText('休日は美術館巡りをしています。').count()).toBe(1);
    await shoot(man, 'woman-detail');
    await askForSetting(man, youngId, 5);
    await askForSetting(man, olderId, 9);

    // Staff: the requests behind the talk list's link, arrange one and decline the other.
    await staff.goto('/talkrooms/setting');
    await staff.getByRole('link', { name: new RegExp(jaMember.setting.requests) }).click();
    await staff.waitForURL('**/setting/requests');
    const first = staff.getByRole('form', { name: `${people.man.name} 青山 ${young}` });
    await expect.poll(() => first.count()).toBe(1);
    // Beside the slots, a short summary of each party from their profiles.
    const her = staff
      .getByRole('group', { name: jaMember.setting.summaryOf(jaMember.setting.woman, `青山 ${young}`) })
      .first();
    await expect.poll(() => her.textContent()).toContain(`162cm ・ ${jaMember.women.rank} VIP`);
    await shoot(staff, 'setting-requests');
    await first.getByRole('radio').nth(1).check();
    await first.getByLabel(jaMember.setting.place).fill('銀座 ホテルロビー');
    await first.getByRole('button', { name: jaMember.setting.arrange }).click();
    await expect.poll(() => toast(staff, jaMember.setting.arranged).count()).toBe(1);

    const second = staff.getByRole('form', { name: `${people.man.name} 石田 ${older}` });
    await second.getByRole('button', { name: jaMember.setting.decline }).click();
    await second.getByLabel(jaMember.setting.declineReason).fill('ご希望の日程が合いませんでした');
    await second.getByRole('button', { name: jaMember.setting.decline }).click();
    await expect.poll(() => toast(staff, jaMember.setting.declined).count()).toBe(1);

    // The man's セッティング履歴 from mypage shows both outcomes.
    await man.goto('/mypage');
    await man.getByRole('link', { name: jaMember.memberMenu.settings }).click();
    await man.waitForURL('**/setting/history');
    const history = man.getByRole('list', { name: jaMember.setting.history });
    await expect.poll(() => history.getByText(jaMember.setting.placeIs('銀座 ホテルロビー')).count()).toBe(1);
    await expect
      .poll(() => history.getByText(jaMember.setting.reasonIs('ご希望の日程が合いませんでした')).count())
      .toBe(1);
    await shoot(man, 'setting-history');
  });
});
