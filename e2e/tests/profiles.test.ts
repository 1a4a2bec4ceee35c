import { describe, expect, test } from 'vitest';
import type { Page } from 'playwright-core';
import { ja, jaMember } from '@enishi/contract';
import {
  createMember,
  imageLoaded,
  openFromHomeMenu,
  phonesPerTest,
  picture,
  sessionId,
  toast,
  uniqueTag,
} from '../lib/admin.js';
import { photograph } from '../lib/photograph.js';

// Staff editing a member's profile (grouped fields, photos, rank history) and the applications inbox.
const { loggedIn } = phonesPerTest();
const p = jaMember.profile;

async function newWoman(staff: Page): Promise<{ uid: number; name: string }> {
  const tag = uniqueTag();
  const name = `プロフ${tag}`;
  const uid = await createMember(staff, { id: `pw-${tag}`, password: 'Woman-pass.1', name, role: 201 });
  return { uid, name };
}

async function apply(page: Page, name: string, type: 'male' | 'female' = 'female'): Promise<void> {
  const reply = await page.request.post('/api/entry', {
    data: { type, name, age: '27', email: 'apply@example.jp', tel: '090-1111-2222' },
  });
  expect(reply.ok()).toBe(true);
}

describe('staff edit a member profile', () => {
  test('grouped fields from the code tables, saved, kept, with the rank history and photos', async () => {
    const staff = await loggedIn('staff');
    const woman = await newWoman(staff);
    await staff.goto(`/women/edit?id=${woman.uid}`);
    const profile = staff.getByRole('form', { name: p.title });
    await profile.waitFor();

    await profile.getByRole('combobox', { name: p.fields.area }).selectOption({ label: '東京' });
    await profile.getByRole('combobox', { name: p.fields.prefecture }).selectOption({ label: '東京都' });
    await profile
      .getByRole('group', { name: p.fields.languages })
      .getByRole('checkbox', { name: '英語' })
      .check();
    await profile.getByText(p.groups.appearance, { exact: true }).click();
    await profile.getByRole('spinbutton', { name: p.fields.height }).fill('165');
    await profile.getByRole('combobox', { name: p.fields.cup }).selectOption({ label: 'D' });
    await profile.getByRole('combobox', { name: p.fields.women_rank }).selectOption({ label: 'プラチナ' });
    await profile.getByRole('textbox', { name: p.fields.sales_note }).fill('初回面談済み');
    await profile.getByRole('button', { name: p.save }).click();
    await toast(staff, p.saved).waitFor();
    const history = staff.getByRole('region', { name: p.history.title });
    await history.getByText(p.history.change(p.fields.women_rank, '一般2', 'プラチナ')).waitFor();

    // A value out of range is refused before sending, on its field.
    await profile.getByRole('spinbutton', { name: p.fields.height }).fill('300');
    await profile.getByRole('button', { name: p.save }).click();
    const rangeError = p.errors.outOfRange(p.fields.height, 120, 220);
    await profile.getByText(rangeError, { exact: true }).waitFor();
    await expect.poll(() => staff.evaluate(() => document.activeElement?.id)).toBe('profile-height');

    // Photos: added through the picker, shown from their signed URL, moved and deleted.
    const photos = staff.getByRole('region', { name: new RegExp(p.photos.title) });
    const input = photos.locator('input[type="file"]');
    await input.setInputFiles(await picture('one.jpg', 600, 800, { r: 200, g: 160, b: 170 }));
    await photos.getByRole('img', { name: p.photos.alt(woman.name, 1) }).waitFor();
    await input.setInputFiles(await picture('two.png', 300, 400, { r: 150, g: 170, b: 200 }));
    const second = photos.getByRole('img', { name: p.photos.alt(woman.name, 2) });
    await second.waitFor();
    await expect.poll(() => imageLoaded(second)).toBe(true);
    await photos.getByRole('button', { name: `${p.photos.alt(woman.name, 2)} ${p.photos.moveUp}` }).click();
    await photos.getByRole('button', { name: `${p.photos.alt(woman.name, 2)} ${p.photos.delete}` }).click();
    await staff.getByRole('alertdialog').getByRole('button', { name: p.photos.delete, exact: true }).click();
    await expect.poll(() => photos.getByRole('img').count()).toBe(1);

    // Read again from the server: what was saved is there.
    await staff.reload();
    await profile.waitFor();
    expect(await profile.getByRole('combobox', { name: p.fields.area }).inputValue()).toBe('1');
    expect(
      await profile
        .getByRole('group', { name: p.fields.languages })
        .getByRole('checkbox', { name: '英語' })
        .isChecked(),
    ).toBe(true);
    expect(await profile.getByRole('textbox', { name: p.fields.sales_note }).inputValue()).toBe(
      '初回面談済み',
    );
  });
});

describe('the applications inbox', () => {
  test('a new application is badged, marked handled, or made into a member with the form filled', async () => {
    const staff = await loggedIn('staff');
    const tag = uniqueTag();
    await apply(staff, `申込 ${tag}`);
    await apply(staff, `入会 ${tag}`, 'male');

    await staff.goto('/');
    const tile = staff.getByRole('link', { name: ja.menu.applications });
    await expect.poll(() => tile.getAttribute('aria-describedby')).not.toBeNull();
    await openFromHomeMenu(staff, ja.menu.applications);
    const row = staff.getByRole('listitem').filter({ hasText: `申込 ${tag}` });
    await row.getByText(p.applications.newBadge).waitFor();
    await row.getByRole('button', { name: p.applications.markHandled }).click();
    await toast(staff, p.applications.markedHandled).waitFor();
    await row.getByText(p.applications.handled, { exact: true }).waitFor();

    const other = staff.getByRole('listitem').filter({ hasText: `入会 ${tag}` });
    await other.getByRole('button', { name: p.applications.makeMember }).click();
    await staff.waitForURL('**/men/add?**');
    const name = staff.getByRole('textbox', { name: jaMember.members.fields.name, exact: true });
    expect(await name.inputValue()).toBe(`入会 ${tag}`);
    await staff.getByRole('textbox', { name: jaMember.members.fields.id, exact: true }).fill(`ap-${tag}`);
    await staff.getByRole('textbox', { name: jaMember.members.fields.pass, exact: true }).fill('Man-pass.12');
    await staff.getByRole('combobox', { name: jaMember.members.fields.rank }).selectOption('1');
    await staff.getByRole('button', { name: jaMember.members.submitAdd, exact: true }).click();
    await toast(staff, jaMember.members.added(`入会 ${tag}`)).waitFor();
    await staff.goto('/applications');
    await staff
      .getByRole('listitem')
      .filter({ hasText: `入会 ${tag}` })
      .getByText(p.applications.handled, { exact: true })
      .waitFor();
  });
});

describe('screens', () => {
  for (const [width, height, suffix] of [
    [375, 812, '375'],
    [1440, 900, '1440'],
  ] as const) {
    test(`profile edit, inbox and club lists at ${width}px`, async () => {
      const staff = await loggedIn('owner');
      await staff.setViewportSize({ width, height });
      const woman = await newWoman(staff);
      const ssid = await sessionId(staff);
      const companies = [
        { code: 1, label: '銀座クラブ 彩' },
        { code: 2, label: '株式会社ミナト企画' },
        { code: 3, label: 'ラウンジ 凛' },
      ];
      await staff.request.post('/api/lookups/update', {
        data: { ssid, list: 'companies', items: companies },
      });
      await staff.request.post('/api/profile/update', {
        data: {
          ssid,
          uid: woman.uid,
          profile: {
            nickname: 'みさき',
            height: 163,
            area: 1,
            languages: [1, 2],
            women_rank: 6,
            entry_type: 1,
          },
        },
      });
      await staff.goto(`/women/edit?id=${woman.uid}`);
      await staff.getByRole('form', { name: p.title }).waitFor();
      await staff.getByRole('region', { name: p.history.title }).getByRole('listitem').first().waitFor();
      await photograph(staff, `profile-edit-${suffix}.png`, { fullPage: true });
      const scrollWidth = await staff.evaluate(() => document.documentElement.scrollWidth);
      expect(scrollWidth).toBeLessThanOrEqual(width);

      await apply(staff, `画面 ${uniqueTag()}`);
      await staff.goto('/applications');
      await staff.getByRole('list', { name: ja.menu.applications }).getByRole('listitem').first().waitFor();
      await photograph(staff, `applications-${suffix}.png`);
      await staff.goto('/');
      const tile = staff.getByRole('link', { name: ja.menu.applications });
      await expect.poll(() => tile.getAttribute('aria-describedby')).not.toBeNull();
      await photograph(staff, `home-staff-applications-${suffix}.png`);
      await staff.goto('/staff/lists');
      await staff.getByRole('tab', { name: new RegExp(p.lookups.companies) }).waitFor();
      await photograph(staff, `club-lists-${suffix}.png`);
    });
  }
});
