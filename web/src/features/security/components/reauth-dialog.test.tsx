// @vitest-environment jsdom
import { jaMember, jaSecondStep } from '@enishi/contract';
import { act, cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError, api } from '@/lib/api-client';
import { clearLocalState } from '@/lib/local-state';
import { setSession } from '@/lib/session';
import { shimModalDialogs } from '@/testing/browser-shims';
import { answerProofRequests } from './reauth-host';

/*
 * The 本人確認 dialog (product.md §11.8): a sensitive change refused with `reauth: true` asks for the password
 * and the person's factor, proves them with /api/reauth, and is then sent once more.
 */

const staff = { uid: 2, role: 3, rank: 0, name: '鈴木スタッフ', session: 'ssid-2', image: null };
const PASSWORD = 'secret-pass1';
const CODE = '123456';

/** The club's server as far as these calls go: a session that is stale until /api/reauth proves it. */
function clubServer(factors: { totp: boolean }) {
  let fresh = false;
  const calls: { name: string; body: Record<string, unknown> }[] = [];
  const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status });
  const fetch = vi.fn(async (url: string, init: RequestInit) => {
    const name = url.replace('/api/', '');
    const body = JSON.parse(String(init.body)) as Record<string, unknown>;
    calls.push({ name, body });
    switch (name) {
      case '2fa/factors':
        return json(200, {
          ...factors,
          passkeys: [],
          recovery_codes_left: 10,
          setup_required: false,
          staff_required: false,
        });
      case 'reauth':
        if (body.password !== PASSWORD) return json(400, { error: jaMember.reauth.errors.passwordWrong });
        if (factors.totp && body.code !== CODE) return json(400, { error: jaSecondStep.errors.codeWrong });
        fresh = true;
        return json(200, { until: new Date().toISOString() });
      case '2fa/recovery/regenerate':
        if (!fresh) return json(403, { error: jaMember.reauth.errors.required, reauth: true });
        return json(200, { recovery_codes: ['aaaa-bbbb-cccc'] });
      default:
        return json(404, { error: 'not found' });
    }
  });
  return { fetch, calls };
}

const type = (label: string, value: string) =>
  fireEvent.change(screen.getByLabelText(label), { target: { value } });
const press = (name: string) => fireEvent.click(screen.getByRole('button', { name }));

/**
 * The dialog's chunk loads on the first refusal: on a loaded machine (CI runs these beside the server's tests)
 * that takes more than Testing Library's 1 s, and a case given up early leaves its change waiting on the next
 * case's dialog.
 */
const SLOW = { timeout: 10_000 };

describe('the re-auth dialog', { timeout: 30_000 }, () => {
  let stopAnswering: () => void;
  beforeEach(() => {
    shimModalDialogs();
    setSession(staff);
    stopAnswering = answerProofRequests();
  });
  afterEach(() => {
    stopAnswering();
    cleanup();
    vi.unstubAllGlobals();
    clearLocalState();
  });

  it('asks for the password and then the code, and carries on with the refused change', async () => {
    const server = clubServer({ totp: true });
    vi.stubGlobal('fetch', server.fetch);
    let result: unknown;
    const change = api('2fa/recovery/regenerate', {}).then((reply) => (result = reply));

    const dialog = await screen.findByRole('dialog', { name: jaMember.reauth.title }, SLOW);
    expect(dialog).toBeTruthy();
    // A wrong password is said in the dialog, which stays.
    await waitFor(
      () => expect(screen.getByRole('button', { name: jaMember.reauth.next })).toBeTruthy(),
      SLOW,
    );
    type(jaMember.reauth.password, 'wrong');
    press(jaMember.reauth.next);
    type(jaMember.reauth.code, CODE);
    press(jaMember.reauth.submit);
    expect((await screen.findByRole('alert', {}, SLOW)).textContent).toBe(
      jaMember.reauth.errors.passwordWrong,
    );

    type(jaMember.reauth.password, PASSWORD);
    press(jaMember.reauth.next);
    type(jaMember.reauth.code, CODE);
    await act(async () => {
      press(jaMember.reauth.submit);
      await change;
    });
    expect(result).toEqual({ recovery_codes: ['aaaa-bbbb-cccc'] });
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(server.calls.map((each) => each.name)).toEqual([
      '2fa/recovery/regenerate',
      '2fa/factors',
      'reauth',
      'reauth',
      '2fa/recovery/regenerate',
    ]);
    expect(server.calls[3]!.body).toEqual({ ssid: staff.session, password: PASSWORD, code: CODE });
  });

  it('asks an account without a factor for its password only', async () => {
    const server = clubServer({ totp: false });
    vi.stubGlobal('fetch', server.fetch);
    const change = api('2fa/recovery/regenerate', {});
    await screen.findByRole('dialog', { name: jaMember.reauth.title }, SLOW);
    await waitFor(
      () => expect(screen.getByRole('button', { name: jaMember.reauth.submit })).toBeTruthy(),
      SLOW,
    );
    type(jaMember.reauth.password, PASSWORD);
    await act(async () => {
      press(jaMember.reauth.submit);
      await change;
    });
    expect(server.calls.filter((each) => each.name === 'reauth')).toHaveLength(1);
  });

  it('leaves the change refused when the person cancels', async () => {
    vi.stubGlobal('fetch', clubServer({ totp: true }).fetch);
    const change = api('2fa/recovery/regenerate', {}).catch((error: unknown) => error);
    await screen.findByRole('dialog', { name: jaMember.reauth.title }, SLOW);
    press(jaMember.reauth.cancel);
    const error = await change;
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).message).toBe(jaMember.reauth.errors.required);
    expect(screen.queryByRole('dialog')).toBeNull();
  });
});
