import { describe, expect, test } from 'vitest';
import type { Page } from 'playwright-core';
import { ja, jaMember, slotOf } from '@enishi/contract';
import {
  createMember,
  openFromHomeMenu,
  phonesPerTest,
  toast,
  uniqueTag,
  type Account,
} from '../lib/admin.js';
import { axeViolations } from '../lib/axe.js';
import { desk, settled } from '../lib/screens.js';
import { photograph } from '../lib/photograph.js';

/*
 * 予約送信 (product.md §4.6) on a phone: staff schedule a bulk send in Japan time, see it in 予約一覧, edit and
 * cancel it; one scheduled for the current minute goes out at the server's next look, and 送信履歴 shows its
 * figures. Screenshots: e2e/screenshots/scheduled-send-375.png and scheduled-send-1440.png.
 */

const t = jaMember.broadcast;
const { loggedIn } = phonesPerTest();

/**
 * Writes `text` to `man` alone, to go at `at` (the picker's Japan time, or the minute it is as the time is
 * picked), and confirms.
 */
async function schedule(staff: Page, man: Account, text: string, at: string | 'this minute') {
  await openFromHomeMenu(staff, ja.menu.sendMen);
  await staff.waitForURL('**/men/send');
  await staff.getByRole('checkbox', { name: man.name }).check();
  await staff.getByRole('link', { name: t.next, exact: true }).click();
  await staff.waitForURL('**/men/send/form');
  await staff.getByRole('textbox', { name: t.message }).fill(text);
  await staff.getByRole('checkbox', { name: t.scheduleLater }).check();
  const confirm = staff.getByRole('alertdialog').getByRole('button', { name: t.scheduleButton, exact: true });
  if (at === 'this minute') {
    // The form refuses a minute already gone (送信日時が過ぎています), so the time is the one of the moment it
    // is picked, not of the test's start; when the minute turns before the form takes it, it is picked again.
    for (let tries = 0; ; tries += 1) {
      await staff.getByLabel(t.sendAt).fill(slotOf(new Date()));
      await staff.getByRole('button', { name: t.scheduleButton, exact: true }).click();
      const refused = toast(staff, t.sendAtPast);
      await confirm.or(refused).first().waitFor();
      if (await confirm.isVisible()) break;
      expect(tries, 'the minute turned twice while the time was picked').toBe(0);
      await refused.waitFor({ state: 'detached' });
    }
  } else {
    await staff.getByLabel(t.sendAt).fill(at);
    await staff.getByRole('button', { name: t.scheduleButton, exact: true }).click();
  }
  await confirm.click();
  await toast(staff, t.scheduledMen).waitFor();
  await staff.waitForURL('**/men/send');
}

describe('予約送信', () => {
  test('schedules in Japan time, edits and cancels in 予約一覧', async () => {
    const staff = await loggedIn('staff');
    const tag = uniqueTag();
    const man: Account = { id: `sc-${tag}`, password: 'Schedule.1', name: `予約 太郎${tag}` };
    await createMember(staff, { ...man, role: 101, rank: 1 });
    const tomorrow = slotOf(new Date(Date.now() + 24 * 60 * 60 * 1000)).slice(0, 11) + '18:30';
    await schedule(staff, man, `明日のご案内 ${tag}`, tomorrow);

    const list = staff.getByRole('region', { name: t.scheduledList });
    const item = list.getByRole('listitem').filter({ hasText: `明日のご案内 ${tag}` });
    await item.getByText('18:30 送信予定').waitFor();
    await settled(staff);
    expect(await axeViolations(staff)).toEqual([]);
    await item.scrollIntoViewIfNeeded();
    await photograph(staff, 'scheduled-send-375.png');

    await item.getByRole('button', { name: t.edit }).click();
    const form = staff.getByRole('form', { name: t.editTitle });
    expect(await form.getByLabel(t.sendAt).inputValue()).toBe(tomorrow);
    await form.getByRole('textbox', { name: t.message }).fill(`変更後のご案内 ${tag}`);
    await form.getByRole('button', { name: t.save }).click();
    await toast(staff, t.saved).waitFor();
    const changed = list.getByRole('listitem').filter({ hasText: `変更後のご案内 ${tag}` });
    await changed.waitFor();

    await changed.getByRole('button', { name: t.cancel }).click();
    await staff.getByRole('alertdialog').getByRole('button', { name: t.cancel, exact: true }).click();
    await toast(staff, t.cancelled).waitFor();
    await changed.waitFor({ state: 'detached' });
  });

  test('a send for the current minute goes out at the next look, and 送信履歴 shows its figures', async () => {
    const staff = await loggedIn('staff');
    const tag = uniqueTag();
    const man: Account = { id: `sn-${tag}`, password: 'Schedule.2', name: `今すぐ 次郎${tag}` };
    await createMember(staff, { ...man, role: 101, rank: 1 });
    const text = `まもなく届くご案内 ${tag}`;
    await schedule(staff, man, text, 'this minute');

    // The scheduler looks every 15 s: within a minute, it is in the history with its figures.
    const history = staff.getByRole('region', { name: t.history });
    const sent = history.getByRole('listitem').filter({ hasText: text });
    await expect
      .poll(
        async () => {
          await staff.reload();
          await history.waitFor();
          return sent.count();
        },
        { timeout: 60_000, interval: 3_000 },
      )
      .toBe(1);
    const figures = sent.getByRole('list', { name: t.figures });
    await figures.getByText(t.deliveredLabel(1, 1)).waitFor({ state: 'attached' });
    await figures.getByText(t.readLabel(0, 1)).waitFor({ state: 'attached' });
    expect(await staff.getByRole('region', { name: t.scheduledList }).getByText(text).count()).toBe(0);

    const member = await loggedIn(man);
    await member.goto('/talkrooms/staff');
    await member.getByRole('log', { name: ja.talk.timeline }).getByText(text).waitFor();

    // The same screen at a desk, with one send still to go.
    const tomorrow = slotOf(new Date(Date.now() + 24 * 60 * 60 * 1000)).slice(0, 11) + '09:00';
    await schedule(staff, man, `明朝のご案内 ${tag}`, tomorrow);
    await staff.setViewportSize(desk);
    await staff.getByRole('region', { name: t.scheduledList }).getByText(`明朝のご案内 ${tag}`).waitFor();
    await settled(staff);
    expect(await axeViolations(staff)).toEqual([]);
    await photograph(staff, 'scheduled-send-1440.png', { fullPage: true });
    // Taken back, so it never reaches him tomorrow.
    await staff
      .getByRole('region', { name: t.scheduledList })
      .getByRole('listitem')
      .filter({ hasText: `明朝のご案内 ${tag}` })
      .getByRole('button', { name: t.cancel })
      .click();
    await staff.getByRole('alertdialog').getByRole('button', { name: t.cancel, exact: true }).click();
    await toast(staff, t.cancelled).waitFor();
  });
});
