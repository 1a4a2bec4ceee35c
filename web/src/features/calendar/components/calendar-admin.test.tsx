// @vitest-environment jsdom
import { jaMember, type ClosingDay } from '@enishi/contract';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { setSession } from '@/lib/session';
import { CalendarAdmin } from './calendar-admin';

/* The admin's closing days (product.md §9.3): listed, added (the server's Japanese refusal shown), deleted. */

const t = jaMember.calendar;
let days: ClosingDay[] = [];
let asked: { url: string; body: Record<string, unknown> }[] = [];

beforeEach(() => {
  setSession({ uid: 1, role: 1, rank: 0, name: '管理者', session: 's', image: null });
  days = [{ id: 1, name: '年末年始', start: '2026-12-29', end: '2027-01-03' }];
  asked = [];
  vi.stubGlobal(
    'fetch',
    vi.fn((url: string, init: RequestInit) => {
      const body = JSON.parse(String(init.body)) as Record<string, unknown>;
      asked.push({ url, body });
      if (url === '/api/calendar') return Promise.resolve(Response.json({ closingDays: days }));
      if (url === '/api/calendar/add') {
        if (body.start === '2027-01-03') {
          return Promise.resolve(Response.json({ error: t.errors.overlaps('年末年始') }, { status: 400 }));
        }
        days = [
          ...days,
          { id: 2, name: String(body.name), start: String(body.start), end: String(body.end) },
        ];
        return Promise.resolve(Response.json({ status: 'OK', id: 2 }));
      }
      if (url === '/api/calendar/delete') {
        days = days.filter((day) => day.id !== body.id);
        return Promise.resolve(Response.json({ status: 'OK' }));
      }
      return new Promise(() => {});
    }),
  );
  render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <CalendarAdmin />
    </QueryClientProvider>,
  );
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const fill = (label: string, value: string) =>
  fireEvent.change(screen.getByLabelText(label), { target: { value } });

describe('the closing days screen', () => {
  it('lists the closings with their dates, and adds one (a single day when the end is left blank)', async () => {
    const list = await screen.findByRole('list');
    expect(within(list).getByText('年末年始')).toBeTruthy();
    expect(within(list).getByText('2026-12-29 〜 2027-01-03')).toBeTruthy();
    fill(t.name, 'お盆');
    fill(t.start, '2027-08-13');
    fireEvent.click(screen.getByRole('button', { name: t.add }));
    expect(await screen.findByText('お盆')).toBeTruthy();
    expect(screen.getByText('2027-08-13')).toBeTruthy();
    expect(asked.find((call) => call.url === '/api/calendar/add')?.body).toMatchObject({
      name: 'お盆',
      start: '2027-08-13',
      end: '2027-08-13',
    });
  });

  it('shows the server’s Japanese refusal of an overlapping closing', async () => {
    await screen.findByText('年末年始');
    fill(t.name, '正月休み');
    fill(t.start, '2027-01-03');
    fill(t.end, '2027-01-05');
    fireEvent.click(screen.getByRole('button', { name: t.add }));
    expect((await screen.findByRole('alert')).textContent).toBe(t.errors.overlaps('年末年始'));
  });

  it('deletes a closing by its named button', async () => {
    fireEvent.click(await screen.findByRole('button', { name: t.remove('年末年始') }));
    expect(await screen.findByText(t.empty)).toBeTruthy();
    expect(asked.find((call) => call.url === '/api/calendar/delete')?.body).toMatchObject({ id: 1 });
  });
});
