// @vitest-environment jsdom
import { CONTENT_TYPE, jaMember, slotOf, type RecipientsReply, type ScheduledRow } from '@enishi/contract';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import type { ReactNode } from 'react';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { clearLocalState } from '@/lib/local-state';
import { setSession } from '@/lib/session';
import { ConfirmProvider } from '@/components/ui/confirm-dialog';
import { ToastViewport } from '@/components/ui/toast-viewport';
import { shimModalDialogs } from '@/testing/browser-shims';
import { describedBy } from '@/testing/described-by';
import { recipientsQueryOptions } from '../api/get-recipients';
import { BroadcastForm } from './broadcast-form';
import { BroadcastHistory } from './broadcast-history';
import { RecipientPicker } from './recipient-picker';
import { ScheduledList } from './scheduled-list';

/*
 * 予約送信 (product.md §4.6): staff pick a date and time in Japan time on the bulk-send form, see the sends still
 * to go in 予約一覧 with 編集 and 取消, and each past send's figures. The club's server answers the calls. The
 * first case of the file pays for rendering cold, which on a loaded machine nears the default 5 s: the cases
 * that click through a dialog have 15 s.
 */

const t = jaMember.broadcast;
const men: RecipientsReply = { rows: [{ uid: 11, name: '山田太郎', rank: 2 }] };
const scheduled: ScheduledRow = {
  id: 5,
  type: 1,
  message: '春の交流会のご案内',
  image_count: 0,
  name: 'スタッフ 花子',
  count: 12,
  send_at: '2030-12-01T09:30:00.000Z',
  state: 'scheduled',
};

/** The club's server: every call is kept; `answers` by name, else 200 OK. */
function clubServer(answers: Record<string, { status: number; body: unknown }> = {}) {
  const calls: { name: string; body: Record<string, unknown> }[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit) => {
      const name = url.replace('/api/', '');
      calls.push({ name, body: JSON.parse(String(init.body)) as Record<string, unknown> });
      const answer = answers[name] ?? { status: 200, body: { status: 'OK', count: 1 } };
      return new Response(JSON.stringify(answer.body), { status: answer.status });
    }),
  );
  return calls;
}

function show(children: ReactNode) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  client.setQueryData(recipientsQueryOptions(CONTENT_TYPE.men).queryKey, men);
  render(
    <QueryClientProvider client={client}>
      <ConfirmProvider>
        <MemoryRouter>{children}</MemoryRouter>
        <ToastViewport />
      </ConfirmProvider>
    </QueryClientProvider>,
  );
}

beforeEach(() => {
  shimModalDialogs();
  setSession({ uid: 1, role: 2, rank: 0, name: 'オーナー', session: 's', image: null });
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  clearLocalState();
});

describe('予約送信 on the bulk-send form', () => {
  it('sends the picked Japan time as send_at with +09:00, after asking with the time', async () => {
    const calls = clubServer();
    show(<RecipientPicker group="men" />);
    fireEvent.click(screen.getByRole('checkbox', { name: /山田太郎/ }));
    cleanup();
    show(<BroadcastForm group="men" />);
    fireEvent.change(screen.getByLabelText(t.message), { target: { value: '予約のお知らせ' } });

    // Not ticked: no time field, and the button sends now.
    expect(screen.queryByLabelText(t.sendAt)).toBeNull();
    fireEvent.click(screen.getByRole('checkbox', { name: t.scheduleLater }));
    const field = screen.getByLabelText(t.sendAt);
    expect(describedBy(field)).toBe(t.sendAtHint);
    expect(field.getAttribute('min')).toBe(slotOf(new Date()));

    // No time chosen yet: the button says why and sends nothing.
    fireEvent.click(screen.getByRole('button', { name: t.scheduleButton }));
    expect(await screen.findByText(t.sendAtMissing)).toBeTruthy();

    const at = slotOf(new Date(Date.now() + 2 * 24 * 60 * 60 * 1000));
    fireEvent.change(field, { target: { value: at } });
    fireEvent.click(screen.getByRole('button', { name: t.scheduleButton }));
    const dialog = await screen.findByRole('alertdialog');
    expect(dialog.textContent).toContain('1人に');
    fireEvent.click(within(dialog).getByRole('button', { name: t.scheduleButton }));

    await waitFor(() => expect(calls.some((call) => call.name === 'messages/send')).toBe(true));
    expect(calls.find((call) => call.name === 'messages/send')!.body).toMatchObject({
      users: [11],
      message: '予約のお知らせ',
      send_at: `${at}:00+09:00`,
    });
    expect(await screen.findByText(t.scheduledMen)).toBeTruthy();
  }, 15_000);
});

describe('予約一覧', () => {
  it('lists a send still to go in Japan time, and edits its time and text', async () => {
    const calls = clubServer({ 'broadcasts/scheduled': { status: 200, body: { rows: [scheduled] } } });
    show(<ScheduledList group="men" />);
    const item = (await screen.findByText(scheduled.message)).closest('li')!;
    // 09:30 UTC is 18:30 in Japan.
    expect(item.textContent).toContain('18:30 送信予定');
    expect(item.textContent).toContain(t.recipients(12));
    const edit = within(item).getByRole('button', { name: t.edit });
    expect(describedBy(edit)).toContain('18:30');

    fireEvent.click(edit);
    const form = screen.getByRole('form', { name: t.editTitle });
    const time = within(form).getByLabelText(t.sendAt);
    expect((time as HTMLInputElement).value).toBe('2030-12-01T18:30');
    expect(document.activeElement).toBe(time);
    fireEvent.change(time, { target: { value: '2030-12-02T10:00' } });
    fireEvent.change(within(form).getByLabelText(t.message), { target: { value: '時間を変えました' } });
    fireEvent.click(within(form).getByRole('button', { name: t.save }));

    await waitFor(() =>
      expect(calls.find((call) => call.name === 'broadcasts/scheduled/update')?.body).toMatchObject({
        id: 5,
        send_at: '2030-12-02T10:00:00+09:00',
        message: '時間を変えました',
      }),
    );
    expect(await screen.findByText(t.saved)).toBeTruthy();
    // Closed: focus is back on 編集.
    await waitFor(() => expect(document.activeElement?.textContent).toBe(t.edit));
  }, 15_000);

  it('cancels after asking, and shows the server’s 409 once it has gone', async () => {
    const calls = clubServer({
      'broadcasts/scheduled': { status: 200, body: { rows: [scheduled] } },
      'broadcasts/scheduled/cancel': { status: 409, body: { error: t.scheduledGone } },
    });
    show(<ScheduledList group="men" />);
    fireEvent.click(await screen.findByRole('button', { name: t.cancel }));
    const dialog = await screen.findByRole('alertdialog');
    expect(dialog.textContent).toContain('18:30送信予定の予約を取り消しますか');
    fireEvent.click(within(dialog).getByRole('button', { name: t.cancel }));
    await waitFor(() =>
      expect(calls.find((call) => call.name === 'broadcasts/scheduled/cancel')?.body).toMatchObject({
        id: 5,
      }),
    );
    expect(await screen.findByText(t.scheduledGone)).toBeTruthy();
  }, 15_000);

  it('says so when nothing is scheduled', async () => {
    clubServer({ 'broadcasts/scheduled': { status: 200, body: { rows: [] } } });
    show(<ScheduledList group="men" />);
    expect(await screen.findByText(t.noScheduled)).toBeTruthy();
  });
});

describe('送信履歴', () => {
  it('shows each send’s figures, each a whole sentence for a screen reader', async () => {
    const row = {
      id: 1,
      type: 1,
      message: 'ご案内',
      image: [],
      name: 'スタッフ 花子',
      date: '2030-11-30T01:00:00.000Z',
      count: 20,
      delivered: 19,
      read: 7,
      pushed: 12,
    };
    clubServer({ broadcasts: { status: 200, body: { rows: [row], isEnd: true } } });
    show(<BroadcastHistory group="men" />);
    const figures = await screen.findByRole('list', { name: t.figures });
    expect(within(figures).getByText(t.deliveredLabel(19, 20))).toBeTruthy();
    expect(within(figures).getByText(t.readLabel(7, 20))).toBeTruthy();
    expect(within(figures).getByText(t.pushedLabel(12, 20))).toBeTruthy();
    expect(figures.textContent).toContain('配信 19/20');
    expect(figures.textContent).toContain('通知 12/20');
  });
});
