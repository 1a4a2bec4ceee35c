// @vitest-environment jsdom
import { ja, jaMember, type FactorsReply } from '@enishi/contract';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { clearLocalState } from '@/lib/local-state';
import { setSession } from '@/lib/session';
import { currentToasts } from '@/lib/toast';
import { ConfirmProvider } from '@/components/ui/confirm-dialog';
import { shimModalDialogs } from '@/testing/browser-shims';
import { SecurityPanel } from './security-panel';

/*
 * ログインとセキュリティ (product.md §11.7) as it loads: a mark while the factors are read, the reason and a way
 * to read again when they cannot be, and after a change the cards first, then the toast that says it is done.
 */

const member = { uid: 7, role: 101, rank: 2, name: '山田太郎', session: 'ssid-7', image: null };
const s = jaMember.security;

const factors = (totp: boolean): FactorsReply => ({
  totp,
  passkeys: [],
  recovery_codes_left: 10,
  setup_required: false,
  staff_required: false,
});

const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status });

/** A fetch whose replies the test hands out one by one, in the order the calls came. */
function heldServer() {
  const calls: { name: string; answer: (response: Response) => void }[] = [];
  const fetch = vi.fn(
    (url: string) =>
      new Promise<Response>((answer) => calls.push({ name: url.replace('/api/', ''), answer })),
  );
  /** Waits for the next unanswered call, checks its name, and answers it. */
  const answer = async (name: string, response: Response) => {
    await waitFor(() => expect(calls[0]?.name).toBe(name));
    calls.shift()!.answer(response);
  };
  return { fetch, answer };
}

const show = () =>
  render(
    <ConfirmProvider>
      <SecurityPanel session={{ ...member }} />
    </ConfirmProvider>,
  );

describe('the security screen', () => {
  let server: ReturnType<typeof heldServer>;
  beforeEach(() => {
    shimModalDialogs();
    setSession(member);
    server = heldServer();
    vi.stubGlobal('fetch', server.fetch);
  });
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
    clearLocalState();
  });

  it('shows 読み込み中… until the factors come, then the cards', async () => {
    show();
    expect(screen.getByRole('progressbar', { name: ja.app.loading })).toBeTruthy();
    expect(screen.queryByRole('heading', { name: s.passkeysTitle })).toBeNull();

    await server.answer('2fa/factors', json(200, factors(false)));
    expect(await screen.findByRole('heading', { name: s.passkeysTitle })).toBeTruthy();
    expect(screen.queryByRole('progressbar')).toBeNull();
  });

  it('says why the factors could not be read, and 再読み込み reads them again', async () => {
    show();
    await server.answer('2fa/factors', json(503, { error: '只今メンテナンス中です。' }));
    expect((await screen.findByRole('alert')).textContent).toContain('只今メンテナンス中です。');

    fireEvent.click(screen.getByRole('button', { name: ja.app.reload }));
    expect(screen.getByRole('progressbar', { name: ja.app.loading })).toBeTruthy();
    await server.answer('2fa/factors', json(200, factors(true)));
    expect(await screen.findByText(s.totpOn)).toBeTruthy();
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('shows the change on the cards before the toast says it is done', async () => {
    show();
    await server.answer('2fa/factors', json(200, factors(true)));
    fireEvent.click(await screen.findByRole('button', { name: s.totpRemove }));
    fireEvent.click(await screen.findByRole('button', { name: ja.app.yes }));
    await server.answer('2fa/totp/remove', json(200, {}));

    // The cards are read again; until they come, no toast: it would stand beside 設定済み.
    await waitFor(() => expect(server.fetch).toHaveBeenCalledTimes(3));
    expect(screen.getByText(s.totpOn)).toBeTruthy();
    expect(currentToasts().map((toast) => toast.message)).not.toContain(s.totpRemoved);

    await server.answer('2fa/factors', json(200, factors(false)));
    await waitFor(() => expect(currentToasts().map((toast) => toast.message)).toContain(s.totpRemoved));
    expect(screen.getByText(s.totpOff)).toBeTruthy();
  });
});
