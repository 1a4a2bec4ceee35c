// @vitest-environment jsdom
import { ja, jaFirstPassword } from '@enishi/contract';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { MemoryRouter, Route, Routes } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { getSession } from '@/lib/session';
import { LoginForm } from './login-form';

/* An imported member's first login (product.md §11.4): the first password asks for their own, then logs in. */

let asked: { url: string; body: Record<string, unknown> }[] = [];

beforeEach(() => {
  asked = [];
  vi.stubGlobal(
    'fetch',
    vi.fn((url: string, init: RequestInit) => {
      const body = JSON.parse(String(init.body)) as Record<string, unknown>;
      asked.push({ url, body });
      if (url === '/api/login')
        return Promise.resolve(
          Response.json({ error: ja.errors.firstPasswordChange, password_change: true }, { status: 403 }),
        );
      if (url === '/api/login/first-password')
        return Promise.resolve(
          Response.json({
            uid: 7,
            role: 201,
            rank: 0,
            name: '初回 花子',
            session: 'new-session',
            device: 'd',
          }),
        );
      return new Promise(() => {});
    }),
  );
  render(
    <MemoryRouter initialEntries={['/login']}>
      <Routes>
        <Route path="/login" element={<LoginForm />} />
        <Route path="/mypage" element={<p>mypage</p>} />
      </Routes>
    </MemoryRouter>,
  );
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('the first login with a first password', () => {
  it('asks for the member’s own password, twice, and logs in with it', async () => {
    fireEvent.change(screen.getByLabelText(ja.login.id), { target: { value: 'imp-1' } });
    fireEvent.change(screen.getByLabelText(ja.login.password), {
      target: { value: 'K7QM-3XZP-A9D2-HT4W-N6BE' },
    });
    fireEvent.click(screen.getByRole('button', { name: ja.login.submit }));
    const mine = await screen.findByLabelText(jaFirstPassword.newPassword);
    expect(screen.getByText(ja.errors.firstPasswordChange)).toBeTruthy();
    fireEvent.change(mine, { target: { value: 'Mine-1234' } });
    fireEvent.change(screen.getByLabelText(jaFirstPassword.newPasswordAgain), {
      target: { value: 'Mine-9999' },
    });
    fireEvent.click(screen.getByRole('button', { name: jaFirstPassword.setPassword }));
    expect(await screen.findByText(jaFirstPassword.newPasswordMismatch)).toBeTruthy();
    expect(asked.some((call) => call.url === '/api/login/first-password')).toBe(false);

    fireEvent.change(screen.getByLabelText(jaFirstPassword.newPasswordAgain), {
      target: { value: 'Mine-1234' },
    });
    fireEvent.click(screen.getByRole('button', { name: jaFirstPassword.setPassword }));
    await screen.findByText('mypage');
    expect(asked.find((call) => call.url === '/api/login/first-password')?.body).toEqual({
      id: 'imp-1',
      password: 'K7QM-3XZP-A9D2-HT4W-N6BE',
      new_password: 'Mine-1234',
    });
    await waitFor(() => expect(getSession()?.session).toBe('new-session'));
  });
});
