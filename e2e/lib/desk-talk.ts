import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import sharp from 'sharp';
import { ja } from '@enishi/contract';
import { composer, storedMessage, timeline } from './talk.js';

/** The steps of the talk with the staff (product.md §2, §15) that the talk tests take on either side. */

/** A member's own desk talk: the member's /talkrooms/staff goes straight to it. */
export async function openDeskAsMember(page: Page): Promise<void> {
  await page.goto('/talkrooms/staff');
  await page.waitForURL(/\/talk\/staff\/\d+$/);
  await timeline(page).waitFor();
}

/** Staff open a member's desk talk from the men's room list, as they would. */
export async function openDeskAsStaff(page: Page, memberName: string): Promise<void> {
  await page.goto('/talkrooms/men');
  await page.getByRole('link', { name: memberName }).click();
  await page.waitForURL(/\/talk\/(staff\/)?\d+$/);
  await timeline(page).waitFor();
}

/**
 * Waits until the home menu's talk-with-staff entry shows `count` unread: the number on its badge and its
 * description for screen readers.
 */
export async function deskBadge(page: Page, count: number): Promise<void> {
  const entry = page
    .getByRole('navigation', { name: ja.home.menuLabel })
    .getByRole('link', { name: ja.menu.talkWithStaff });
  await entry.waitFor();
  const shown = () =>
    entry.evaluate((link) => {
      const description = link.getAttribute('aria-describedby');
      return {
        badge: link.querySelector('.count-badge')?.textContent ?? '',
        description: description ? (document.getElementById(description)?.textContent ?? '') : '',
      };
    });
  await expect
    .poll(shown, { timeout: 15_000 })
    .toEqual({ badge: String(count), description: ja.home.unread(count) });
}

/** Resolves once the server tells the page's chat socket that nothing from staff is unread. */
export function nothingUnreadFromStaff(page: Page): Promise<void> {
  return new Promise((resolve) => {
    page.on('websocket', (socket) =>
      socket.on('framereceived', ({ payload }) => {
        const frame = JSON.parse(String(payload)) as { type?: string; fromStaff?: number };
        if (frame.type === 'notifications' && frame.fromStaff === 0) resolve();
      }),
    );
  });
}

/** Opens the message menu of the message holding `text` (the per-message button; long-press also works). */
export async function messageMenu(page: Page, text: string) {
  // A stored message (one still being sent has its own, shorter menu), as a person would wait for 送信中 to go.
  const message = storedMessage(page, text);
  await message.waitFor();
  await message.getByRole('button', { name: ja.talk.messageMenu }).click();
  return page.getByRole('menu');
}

/** Writes `text` and sends it, without waiting for the server (lib/talk.ts sendComment waits). */
export async function send(page: Page, text: string): Promise<void> {
  await composer(page).fill(text);
  await page.getByRole('button', { name: ja.talk.send, exact: true }).click();
}

export async function photo(): Promise<Buffer> {
  // A landscape photo as a PNG, grainy as a real one: the app resizes it to 400 wide and sends a JPEG.
  const noise = { type: 'gaussian' as const, mean: 140, sigma: 40 };
  const raw = await sharp({ create: { width: 900, height: 600, channels: 3, noise, background: '#000' } })
    .raw()
    .toBuffer({ resolveWithObject: true });
  return sharp(raw.data, { raw: raw.info }).png().toBuffer();
}
