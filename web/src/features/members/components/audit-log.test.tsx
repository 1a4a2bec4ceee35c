// @vitest-environment jsdom
import { ja, jaMember, type AuditRow } from '@enishi/contract';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { MemoryRouter, useLocation } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { setSession } from '@/lib/session';
import { AuditLog } from './audit-log';

/* The audit log's filter (product.md §2.8): kept in the address, and a filter with no hits says so. */

const t = jaMember.audit;
let asked: Record<string, unknown>[] = [];

function Address() {
  return <output data-testid="address">{useLocation().search}</output>;
}

function show(address: string) {
  render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <MemoryRouter initialEntries={[`/staff/audit${address}`]}>
        <AuditLog />
        <Address />
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

beforeEach(() => {
  setSession({ uid: 1, role: 2, rank: 0, name: 'オーナー', session: 's', image: null });
  asked = [];
  vi.stubGlobal(
    'fetch',
    vi.fn((url: string, init: RequestInit) => {
      if (url !== '/api/auditlog') return new Promise(() => {});
      asked.push(JSON.parse(String(init.body)) as Record<string, unknown>);
      return Promise.resolve(Response.json({ rows: [], isEnd: true }));
    }),
  );
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('the audit log’s filter', () => {
  it('comes from the address and, with no hits, says 条件に合う記録はありません', async () => {
    show('?person=田中&action=image&from=2026-11-01');
    expect(await screen.findByText('条件に合う記録はありません')).toBeTruthy();
    expect(asked[0]).toMatchObject({ page: 0, person: '田中', action: 'image', from: '2026-11-01' });
    expect((screen.getByRole('searchbox', { name: t.person }) as HTMLInputElement).value).toBe('田中');
    expect((screen.getByRole('combobox', { name: t.action }) as HTMLSelectElement).value).toBe('image');
  });

  it('goes into the address when applied, and an empty log without a filter says it has no records yet', async () => {
    show('');
    expect(await screen.findByText(t.empty)).toBeTruthy();
    fireEvent.change(screen.getByRole('searchbox', { name: t.person }), { target: { value: '佐藤' } });
    fireEvent.click(screen.getByRole('button', { name: t.apply }));
    await waitFor(() => expect(screen.getByTestId('address').textContent).toBe('?person=%E4%BD%90%E8%97%A4'));
    expect(await screen.findByText(t.noMatch)).toBeTruthy();
  });

  it('keeps the rows shown while a new filter’s rows come, marked busy, not a spinner in their place', async () => {
    const row: AuditRow = {
      id: 1,
      date: '2026-11-30T01:00:00.000Z',
      action: 'delete',
      actor: { uid: 1, name: 'オーナー' },
      target: { uid: 9, role: 101, name: '山田太郎' },
      before: null,
      after: null,
      password_reset: false,
    };
    vi.stubGlobal(
      'fetch',
      vi.fn((url: string, init: RequestInit) => {
        if (url !== '/api/auditlog') return new Promise(() => {});
        // The first read answers; the filtered one is still on its way.
        const body = JSON.parse(String(init.body)) as { person?: string };
        return body.person
          ? new Promise(() => {})
          : Promise.resolve(Response.json({ rows: [row], isEnd: true }));
      }),
    );
    show('');
    expect(await screen.findByText(/山田太郎/)).toBeTruthy();
    fireEvent.change(screen.getByRole('searchbox', { name: t.person }), { target: { value: '佐藤' } });
    fireEvent.click(screen.getByRole('button', { name: t.apply }));
    await waitFor(() => expect(screen.getByRole('list').getAttribute('aria-busy')).toBe('true'));
    expect(screen.getByText(/山田太郎/)).toBeTruthy();
    expect(screen.queryByRole('progressbar', { name: ja.app.loading })).toBeNull();
    expect(screen.queryByText(t.noMatch)).toBeNull();
  });
});
