// @vitest-environment jsdom
import { jaMember, slotLabel, type SettingRow } from '@enishi/contract';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import type { ReactNode } from 'react';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { clearLocalState } from '@/lib/local-state';
import { setSession } from '@/lib/session';
import { describedBy } from '@/testing/described-by';
import { SettingRequestForm } from './setting-request-form';
import { SettingRequests } from './setting-requests';

/*
 * No double booking (product.md §18.5): staff read which slot of a request meets which confirmed setting, and
 * confirm it only with a reason; a man reads, before sending, that a slot meets one of his confirmed settings.
 */

const o = jaMember.setting.overlap;
const staff = { uid: 3, role: 3, rank: 0, name: '受付 スタッフ', session: 'ssid-3', image: null };
const man = { uid: 10, role: 101, rank: 1, name: '山田 太郎', session: 'ssid-10', image: null };

const row = (overrides: Partial<SettingRow>): SettingRow => ({
  id: 14,
  men: { uid: 10, name: '山田 太郎' },
  women: { uid: 21, name: '田中 由美', enquiry_id: null },
  preferred: ['2030-12-01T19:30', '2030-12-02T19:00', '2030-12-03T19:00'],
  status: 'requested',
  slot: null,
  conversation_id: null,
  created_at: '2030-11-20T01:00:00.000Z',
  note: '',
  place: null,
  reason: null,
  ...overrides,
});
const waiting = row({
  overlaps: [
    { slot: 1, who: 'man', other: { id: 12, at: '2030-12-01T19:00', men: '山田 太郎', women: '佐藤 花子' } },
  ],
});
const confirmed = row({
  id: 12,
  women: { uid: 20, name: '佐藤 花子', enquiry_id: null },
  status: 'arranged',
  slot: 1,
  preferred: ['2030-12-01T19:00', '2030-12-05T19:00', '2030-12-06T19:00'],
});

/** The club's server: setting/list answers `rows`, setting/update `update`; every call is kept. */
function clubServer(
  rows: SettingRow[],
  update: { status: number; body: unknown } = { status: 200, body: { row: rows[0] } },
) {
  const calls: { name: string; body: Record<string, unknown> }[] = [];
  const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status });
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit) => {
      const name = url.replace('/api/', '');
      calls.push({ name, body: JSON.parse(String(init.body)) as Record<string, unknown> });
      if (name === 'setting/list') return json(200, { rows, isEnd: true, requested: 1 });
      if (name === 'setting/update') return json(update.status, update.body);
      if (name === 'setting/add') return json(200, { id: 30 });
      return json(404, { error: 'not found' });
    }),
  );
  return calls;
}

const shown = (ui: ReactNode) =>
  render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <MemoryRouter>{ui}</MemoryRouter>
    </QueryClientProvider>,
  );
const type = (label: string, value: string) =>
  fireEvent.change(screen.getByLabelText(label), { target: { value } });

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  clearLocalState();
});

describe("staff's warning on a request that would double-book", () => {
  it('names the confirmed setting the slot meets', async () => {
    setSession(staff);
    clubServer([waiting]);
    shown(<SettingRequests />);
    const note = await screen.findByRole('note', { name: o.heading });
    expect(note.textContent).toContain(
      o.warning(1, '山田 太郎', slotLabel('2030-12-01T19:00'), '佐藤 花子', 12),
    );
  });

  it('asks for a reason when that slot is chosen, and sends it with the confirmation', async () => {
    setSession(staff);
    const calls = clubServer([waiting]);
    shown(<SettingRequests />);
    const slot1 = await screen.findByRole('radio', {
      name: (name) => name.includes(slotLabel('2030-12-01T19:30')),
    });
    expect(screen.queryByLabelText(o.reason)).toBeNull();
    fireEvent.click(slot1);
    type(jaMember.setting.place, '銀座');
    const reason = screen.getByLabelText(o.reason);
    expect(describedBy(reason)).toContain(o.reasonHint);
    expect(describedBy(reason)).toContain(o.heading);

    fireEvent.click(screen.getByRole('button', { name: o.arrangeAnyway }));
    expect(screen.getByRole('alert').textContent).toBe(jaMember.setting.errors.overlapReasonRequired);
    expect(calls.some((call) => call.name === 'setting/update')).toBe(false);

    type(o.reason, '本人の希望');
    await act(async () => fireEvent.click(screen.getByRole('button', { name: o.arrangeAnyway })));
    await waitFor(() => expect(calls.some((call) => call.name === 'setting/update')).toBe(true));
    expect(calls.find((call) => call.name === 'setting/update')!.body).toEqual({
      ssid: staff.session,
      id: 14,
      status: 'arranged',
      slot: 1,
      place: '銀座',
      overlap_reason: '本人の希望',
    });
  });

  it('confirms a slot that meets nothing as before, and shows the server’s 409', async () => {
    setSession(staff);
    const refusal = jaMember.setting.errors.overlap('山田 太郎', slotLabel('2030-12-02T18:00'), '林 凛', 15);
    const calls = clubServer([waiting], { status: 409, body: { error: refusal, overlaps: [] } });
    shown(<SettingRequests />);
    fireEvent.click(
      await screen.findByRole('radio', { name: (name) => name.includes(slotLabel('2030-12-02T19:00')) }),
    );
    type(jaMember.setting.place, '新宿');
    expect(screen.queryByLabelText(o.reason)).toBeNull();
    await act(async () => fireEvent.click(screen.getByRole('button', { name: jaMember.setting.arrange })));
    expect((await screen.findByRole('alert')).textContent).toBe(refusal);
    expect(calls.find((call) => call.name === 'setting/update')!.body).not.toHaveProperty('overlap_reason');
  });
});

describe("the man's warning in his request form", () => {
  // The opened form scrolls itself into view, which jsdom does not do.
  beforeEach(() => {
    Element.prototype.scrollIntoView = () => undefined;
  });

  it('names his confirmed setting a slot meets, and still sends', async () => {
    setSession(man);
    const calls = clubServer([confirmed]);
    shown(<SettingRequestForm womanId={21} />);
    fireEvent.click(screen.getByRole('button', { name: jaMember.setting.open }));
    type(jaMember.setting.preferred(1), '2030-12-01T20:00');
    type(jaMember.setting.preferred(2), '2030-12-01T21:00');
    type(jaMember.setting.preferred(3), '2030-12-04T19:00');
    const note = await screen.findByRole('note', { name: o.heading });
    expect(
      within(note)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual([o.own(1, slotLabel('2030-12-01T19:00'), '佐藤 花子')]);
    expect(note.textContent).toContain(o.ownNext);

    await act(async () => fireEvent.click(screen.getByRole('button', { name: jaMember.setting.send })));
    await waitFor(() => expect(calls.some((call) => call.name === 'setting/add')).toBe(true));
  });

  it('says nothing when no slot is within two hours', async () => {
    setSession(man);
    const calls = clubServer([confirmed]);
    shown(<SettingRequestForm womanId={21} />);
    fireEvent.click(screen.getByRole('button', { name: jaMember.setting.open }));
    type(jaMember.setting.preferred(1), '2030-12-01T21:00');
    type(jaMember.setting.preferred(2), '2030-12-01T17:00');
    // His confirmed settings were read (the warning is not merely waiting for them), and none is near.
    await waitFor(() =>
      expect(calls.find((call) => call.name === 'setting/list')?.body).toMatchObject({ status: 'arranged' }),
    );
    await act(async () => {});
    expect(screen.queryByRole('note')).toBeNull();
  });
});
