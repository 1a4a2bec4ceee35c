import type { Locator, Page } from 'playwright-core';
import { ja } from '@enishi/contract';

/** The talk screen's parts, as a person (or a screen reader) finds them. */
export const timeline = (page: Page): Locator => page.getByRole('log', { name: ja.talk.timeline });
export const composer = (page: Page): Locator => page.getByRole('textbox', { name: ja.talk.placeholder });
/** A message the server has stored (one still being sent has no id yet). */
export const storedMessage = (page: Page, text: string): Locator =>
  timeline(page).locator('article[data-message-id]').filter({ hasText: text }).last();

/**
 * Writes `text` in the comment box and sends it, then waits until the server has stored it (its echo came).
 * When it never is, the error says what the screen showed instead: the comment box, toasts, the last rows.
 */
export async function sendComment(page: Page, text: string, timeout = 15_000): Promise<Locator> {
  await composer(page).fill(text);
  await page.getByRole('button', { name: ja.talk.send, exact: true }).click();
  const stored = storedMessage(page, text);
  await stored.waitFor({ timeout }).catch(async (error: unknown) => {
    throw new Error(`「${text}」 was not stored; the screen showed ${await describeTalk(page)}`, {
      cause: error,
    });
  });
  return stored;
}

/** What a talk screen shows now, in one line for a test's error. */
async function describeTalk(page: Page): Promise<string> {
  const [box, toasts, rows] = await Promise.all([
    composer(page)
      .inputValue({ timeout: 1000 })
      .catch(() => '(no comment box)'),
    page.getByRole('status').allInnerTexts(),
    timeline(page).getByRole('article').allInnerTexts(),
  ]);
  const last = rows.slice(-3).map((row) => row.replace(/\s+/g, ' '));
  return [
    `url ${page.url()}`,
    `comment box 「${box}」`,
    `toasts ${toasts.filter(Boolean).join(' / ') || '(none)'}`,
    `${rows.length} rows drawn, the last: ${last.join(' | ') || '(none)'}`,
  ].join('; ');
}
