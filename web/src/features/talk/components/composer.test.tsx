// @vitest-environment jsdom
import 'fake-indexeddb/auto';
import { fillCannedReply, jaMember } from '@enishi/contract';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { clearLocalState } from '@/lib/local-state';
import { logInAsStaff } from '@/testing/browser-shims';
import { Composer, type Outgoing } from './composer';

// jsdom has no CSS object; the box grows by CSS where `field-sizing` is supported.
vi.stubGlobal('CSS', { supports: () => true });
// The box keeps a draft per talk on the device: each test starts on a clean one, logged in.
beforeEach(() => {
  clearLocalState();
  logInAsStaff();
});
afterEach(cleanup);

const canned = [
  { id: 1, name: 'あいさつ', body: '{name}様、お問い合わせありがとうございます。' },
  { id: 2, name: 'aisatsu-en', body: 'Hello {name}, this is {staff}.' },
  { id: 3, name: '日程', body: '{name}様、ご希望の日程をお知らせください。' },
];
const fill = (body: string) => fillCannedReply(body, { name: '山田太郎', staff: '鈴木' });

function composer(onSend = vi.fn<(outgoing: Outgoing) => void>()) {
  render(
    <Composer
      conversationId={991}
      replyTo={null}
      onCancelReply={() => {}}
      onSend={onSend}
      canned={canned}
      fillCanned={fill}
    />,
  );
  return { box: screen.getByRole('textbox') as HTMLTextAreaElement, onSend };
}

describe('saved replies in the comment box', async () => {
  it('offers the replies whose name starts with what follows /, and Enter takes the chosen one, filled', async () => {
    const { box } = composer();
    fireEvent.change(box, { target: { value: '/あ' } });
    const options = await screen.findAllByRole('option');
    expect(options.map((option) => option.textContent)).toEqual([
      '/あいさつ山田太郎様、お問い合わせありがとうございます。',
    ]);
    expect(box.getAttribute('aria-activedescendant')).toBe(options[0]!.id);
    fireEvent.keyDown(box, { key: 'Enter' });
    await waitFor(() => expect(box.value).toBe('山田太郎様、お問い合わせありがとうございます。'));
    await waitFor(() => expect(screen.queryByRole('listbox')).toBeNull());
  });

  it('moves with the arrow keys, closes on Esc, and matches a name in any case', async () => {
    const { box } = composer();
    fireEvent.change(box, { target: { value: '/' } });
    expect(await screen.findAllByRole('option')).toHaveLength(3);
    fireEvent.keyDown(box, { key: 'ArrowDown' });
    fireEvent.keyDown(box, { key: 'Tab' });
    await waitFor(() => expect(box.value).toBe('Hello 山田太郎, this is 鈴木.'));
    fireEvent.change(box, { target: { value: '/AIS' } });
    expect(await screen.findAllByRole('option')).toHaveLength(1);
    fireEvent.keyDown(box, { key: 'Escape' });
    await waitFor(() => expect(screen.queryByRole('listbox')).toBeNull());
    await waitFor(() => expect(box.value).toBe('/AIS'));
  });

  it('the 定型文 button offers them all and adds the one picked after what is written', async () => {
    const { box } = composer();
    fireEvent.change(box, { target: { value: 'こんにちは' } });
    await waitFor(() => expect(box.value).toBe('こんにちは'));
    fireEvent.click(screen.getByRole('button', { name: jaMember.desk.replies }));
    fireEvent.click((await screen.findAllByRole('option'))[2]!);
    await waitFor(() => expect(box.value).toBe('こんにちは\n山田太郎様、ご希望の日程をお知らせください。'));
  });

  it('says how Enter behaves, and Ctrl+Enter sends', async () => {
    const { box, onSend } = composer();
    expect(box.getAttribute('aria-describedby')).toBeTruthy();
    expect(document.getElementById(box.getAttribute('aria-describedby')!)?.textContent).toBe(
      jaMember.desk.enterHint,
    );
    fireEvent.change(box, { target: { value: '送ります' } });
    await waitFor(() => expect(box.value).toBe('送ります'));
    fireEvent.keyDown(box, { key: 'Enter' });
    expect(onSend).not.toHaveBeenCalled();
    fireEvent.keyDown(box, { key: 'Enter', ctrlKey: true });
    await waitFor(() => expect(onSend).toHaveBeenCalledWith({ message: '送ります', image: [], reply: null }));
  });
});

describe('the message length limit', () => {
  it('shows a counter near the box once a message is long, and marks the limit', async () => {
    const { MESSAGE_MAX } = await import('@enishi/contract');
    const { box } = composer();
    expect(box.maxLength).toBe(MESSAGE_MAX);
    fireEvent.change(box, { target: { value: 'あ'.repeat(100) } });
    expect(screen.queryByText(jaMember.talkLimit.count(100, MESSAGE_MAX))).toBeNull();
    fireEvent.change(box, { target: { value: 'あ'.repeat(4200) } });
    expect(screen.getByRole('status').textContent).toBe(jaMember.talkLimit.count(4200, MESSAGE_MAX));
    fireEvent.change(box, { target: { value: 'あ'.repeat(MESSAGE_MAX) } });
    expect(screen.getByRole('status').textContent).toBe('5,000 / 5,000文字');
  });
});
