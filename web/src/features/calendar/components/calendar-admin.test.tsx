// @vitest-environment jsdom
import { DEFAULT_HOURS, jaMember, type BusinessDay, type ClosingDay } from '@enishi/contract';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { setSession } from '@/lib/session';
import { CalendarAdmin } from './calendar-admin';

/* The admin's closing days (product.md §9.3): listed, added (the server's Japanese refusal shown), deleted. */

const t = jaMember.calendar;
/** Testing Library's 1 s is too short beside the server's tests in CI (a case took 1,975 ms there). */
const SLOW = { timeout: 10_000 };
let days: ClosingDay[] = [];
let asked: { url: string; body: Record<string, unknown> }[] = [];
let hours: BusinessDay[] = [...DEFAULT_HOURS];

beforeEach(() => {
  setSession({ uid: 1, role: 1, rank: 0, name: '管理者', session: 's', image: null });
  days = [{ id: 1, name: '年末年始', start: '2026-12-29', end: '2027-01-03' }];
  asked = [];
  hours = [...DEFAULT_HOURS];
  vi.stubGlobal(
    'fetch',
    vi.fn((url: string, init: RequestInit) => {
      const body = JSON.parse(String(init.body)) as Record<string, unknown>;
      asked.push({ url, body });
      if (url === '/api/calendar') return Promise.resolve(Response.json({ closingDays: days, hours }));
      if (url === '/api/calendar/hours') {
        const sent = body.hours as BusinessDay[];
        if (sent[1]!.closes <= sent[1]!.opens) {
          return Promise.resolve(Response.json({ error: t.errors.closesBeforeOpens('月') }, { status: 400 }));
        }
        hours = sent;
        return Promise.resolve(Response.json({ status: 'OK' }));
      }
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

describe('the closing days screen', { timeout: 30_000 }, () => {
  it('lists the closings with their dates, and adds one (a single day when the end is left blank)', async () => {
    const list = await screen.findByRole('list', {}, SLOW);
    expect(within(list).getByText('年末年始')).toBeTruthy();
    expect(within(list).getByText('2026年12月29日(火) 〜 2027年1月3日(日)')).toBeTruthy();
    fill(t.name, 'お盆');
    fill(t.start, '2027-08-13');
    fireEvent.click(screen.getByRole('button', { name: t.add }));
    expect(await screen.findByText('お盆', {}, SLOW)).toBeTruthy();
    expect(screen.getByText('2027年8月13日(金)')).toBeTruthy();
    expect(asked.find((call) => call.url === '/api/calendar/add')?.body).toMatchObject({
      name: 'お盆',
      start: '2027-08-13',
      end: '2027-08-13',
    });
  });

  it('shows the server’s Japanese refusal of an overlapping closing', async () => {
    await screen.findByText('年末年始', {}, SLOW);
    fill(t.name, '正月休み');
    fill(t.start, '2027-01-03');
    fill(t.end, '2027-01-05');
    fireEvent.click(screen.getByRole('button', { name: t.add }));
    expect((await screen.findByRole('alert', {}, SLOW)).textContent).toBe(t.errors.overlaps('年末年始'));
  });

  it('deletes a closing by its named button', async () => {
    fireEvent.click(await screen.findByRole('button', { name: t.remove('年末年始') }, SLOW));
    expect(await screen.findByText(t.empty, {}, SLOW)).toBeTruthy();
    expect(asked.find((call) => call.url === '/api/calendar/delete')?.body).toMatchObject({ id: 1 });
  });

  it('saves the hours of each weekday, showing how the auto-reply will word them', async () => {
    const saturday = await screen.findByRole('group', { name: t.weekday('土') }, SLOW);
    const sunday = screen.getByRole('group', { name: t.weekday('日') });
    expect(screen.getByText(t.hoursPreview('12:00〜20:00（日曜・祝日休み）'))).toBeTruthy();
    fireEvent.click(within(saturday).getByRole('checkbox', { name: t.openDay }));
    fireEvent.click(within(sunday).getByRole('checkbox', { name: t.openDay }));
    fireEvent.change(within(sunday).getByLabelText(t.opens), { target: { value: '10:00' } });
    fireEvent.change(within(sunday).getByLabelText(t.closes), { target: { value: '17:00' } });
    expect(
      screen.getByText(t.hoursPreview('月〜金 12:00〜20:00、日 10:00〜17:00（土曜・祝日休み）')),
    ).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: t.saveHours }));
    // Saved, the list is read again: the form shows what the server now holds.
    await waitFor(() => expect(asked.filter((call) => call.url === '/api/calendar')).toHaveLength(2), SLOW);
    const sent = asked.find((call) => call.url === '/api/calendar/hours')?.body.hours as BusinessDay[];
    expect(sent[0]).toEqual({ open: true, opens: '10:00', closes: '17:00' });
    expect(sent[6]).toMatchObject({ open: false });
    expect(sent.slice(1, 6)).toEqual(DEFAULT_HOURS.slice(1, 6));
  });

  it('shows the server’s Japanese refusal of hours that close before they open', async () => {
    const monday = await screen.findByRole('group', { name: t.weekday('月') }, SLOW);
    fireEvent.change(within(monday).getByLabelText(t.closes), { target: { value: '11:00' } });
    fireEvent.click(screen.getByRole('button', { name: t.saveHours }));
    expect((await screen.findByRole('alert', {}, SLOW)).textContent).toBe(t.errors.closesBeforeOpens('月'));
  });
});
