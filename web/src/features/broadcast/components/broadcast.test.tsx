// @vitest-environment jsdom
import { CONTENT_TYPE, jaMember, type RecipientsReply } from '@enishi/contract';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import type { ReactNode } from 'react';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { clearLocalState } from '@/lib/local-state';
import { setSession } from '@/lib/session';
import { ConfirmProvider } from '@/components/ui/confirm-dialog';
import { describedBy } from '@/testing/described-by';
import { recipientsQueryOptions } from '../api/get-recipients';
import { BroadcastForm } from './broadcast-form';
import { RecipientPicker } from './recipient-picker';

/*
 * A greyed-out button of the bulk send says why (product.md §2.8): the reason is on the screen, and it is the
 * button's accessible description, so a screen reader reads it with the button. The recipients are in the
 * query cache as /api/broadcasts/recipients gave them; nothing is sent.
 */

const t = jaMember.broadcast;
const men: RecipientsReply = {
  rows: [
    { uid: 11, name: '山田太郎', rank: 2 },
    { uid: 12, name: '鈴木一郎', rank: 1 },
  ],
};

function show(children: ReactNode) {
  const client = new QueryClient();
  client.setQueryData(recipientsQueryOptions(CONTENT_TYPE.men).queryKey, men);
  render(
    <QueryClientProvider client={client}>
      <ConfirmProvider>
        <MemoryRouter>{children}</MemoryRouter>
      </ConfirmProvider>
    </QueryClientProvider>,
  );
}

beforeEach(() => {
  setSession({ uid: 1, role: 2, rank: 0, name: 'オーナー', session: 's', image: null });
});
afterEach(() => {
  cleanup();
  clearLocalState();
});

describe('choosing the recipients of a bulk send', () => {
  it('greys out メッセージ作成へ until someone is chosen, and says why', () => {
    show(<RecipientPicker group="men" />);
    const next = screen.getByRole('button', { name: t.next });
    expect((next as HTMLButtonElement).disabled).toBe(true);
    expect(screen.getByText(t.nextDisabled)).toBeTruthy();
    expect(describedBy(next)).toBe(t.nextDisabled);

    fireEvent.click(screen.getByRole('checkbox', { name: /山田太郎/ }));
    // Chosen: the step is a link now, and the reason is gone.
    expect(screen.getByRole('link', { name: t.next })).toBeTruthy();
    expect(screen.queryByText(t.nextDisabled)).toBeNull();
  });
});

describe('the bulk-send form', () => {
  it('with nobody chosen, greys out 送信 and its description says how to choose', () => {
    show(<BroadcastForm group="men" />);
    const send = screen.getByRole('button', { name: t.send });
    expect((send as HTMLButtonElement).disabled).toBe(true);
    expect(screen.getByText(t.sendDisabled)).toBeTruthy();
    expect(describedBy(send)).toBe(t.sendDisabled);
    // The image button names its limit (5枚まで), so it says why once greyed out.
    expect(describedBy(screen.getByLabelText(t.addImage))).toBe(t.imageHint);
  });

  it('with a member chosen, 送信 is ready and no reason is shown', () => {
    show(<RecipientPicker group="men" />);
    fireEvent.click(screen.getByRole('checkbox', { name: /鈴木一郎/ }));
    cleanup();
    show(<BroadcastForm group="men" />);
    const send = screen.getByRole('button', { name: t.send });
    expect((send as HTMLButtonElement).disabled).toBe(false);
    expect(send.getAttribute('aria-describedby')).toBeNull();
    expect(screen.queryByText(t.sendDisabled)).toBeNull();
    expect(screen.getByText(t.recipients(1))).toBeTruthy();
  });
});
