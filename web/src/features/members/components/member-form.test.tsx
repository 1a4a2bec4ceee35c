// @vitest-environment jsdom
import { jaMember, type MemberKind, type UserRow } from '@enishi/contract';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { clearLocalState } from '@/lib/local-state';
import { setSession } from '@/lib/session';
import { describedBy } from '@/testing/described-by';
import { MemberForm } from './member-form';

/*
 * The member and staff forms explain their rules before anything is sent (product.md §2.8, §5): what an ID
 * and a password may hold is on the screen under each field and is the field's accessible description, so a
 * screen reader reads it on entering the field. Only the first 登録する is pressed here, and the check before
 * sending stops it: nothing reaches a server.
 */

const text = jaMember.members;

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  clearLocalState();
});

/** A field by its label (the label holds 必須 on a required field; パスワードを表示 is another label). */
const field = (label: string) => screen.getByLabelText(new RegExp(`^${label}(${text.required})?$`));

function show(kind: MemberKind, user?: UserRow) {
  render(
    <QueryClientProvider client={new QueryClient()}>
      <MemoryRouter>
        <MemberForm kind={kind} user={user} />
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

describe.each(['men', 'staff'] as const)('the %s add form', (kind) => {
  it('shows the ID and password rules under their fields before it is sent, as their descriptions', () => {
    show(kind);
    const id = field(text.fields.id);
    const pass = field(text.fields.pass);
    expect(screen.getByText(text.hints.id)).toBeTruthy();
    expect(screen.getByText(text.hints.pass)).toBeTruthy();
    expect(describedBy(id)).toBe(text.hints.id);
    expect(describedBy(pass)).toBe(text.hints.pass);
  });

  it('keeps the rule beside the error once the check before sending finds one', () => {
    show(kind);
    fireEvent.click(screen.getByRole('button', { name: text.submitAdd }));
    const id = field(text.fields.id);
    expect(id.getAttribute('aria-invalid')).toBe('true');
    expect(describedBy(id)).toContain(text.hints.id);
    expect(describedBy(id).length).toBeGreaterThan(text.hints.id.length);
  });
});

/** A staff member on the owner's edit screen, with a reading. */
const staffMember: UserRow = {
  uid: 7,
  id: 'mori',
  name: '森 さくら',
  name_kana: 'もり さくら',
  role: 3,
  rank: 0,
  introducer: '',
  image: null,
  username: '森 さくら',
  user_image: null,
  unreads: '{}',
};

describe('ふりがな (product.md §5.7)', () => {
  it('is a field of every form, its rule under it as its description', () => {
    for (const kind of ['men', 'women', 'staff'] as const) {
      show(kind);
      const kana = field(text.fields.name_kana);
      expect(describedBy(kana)).toBe(text.hints.name_kana);
      cleanup();
    }
  });

  it('refuses other characters before anything is sent, saying so at the field', () => {
    const fetch = vi.fn();
    vi.stubGlobal('fetch', fetch);
    show('staff');
    fireEvent.change(field(text.fields.name_kana), { target: { value: 'Mori' } });
    fireEvent.click(screen.getByRole('button', { name: text.submitAdd }));
    const kana = field(text.fields.name_kana);
    expect(kana.getAttribute('aria-invalid')).toBe('true');
    expect(describedBy(kana)).toContain(text.errors.kanaInvalid);
    expect(fetch).not.toHaveBeenCalled();
  });

  it('shows a staff member’s reading on edit and sends what is typed, in katakana too', async () => {
    const bodies: Record<string, unknown>[] = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (_url: string, init: RequestInit) => {
        bodies.push(JSON.parse(String(init.body)) as Record<string, unknown>);
        return new Response(JSON.stringify({ rows: [{ ...staffMember, name_kana: 'もり さくこ' }] }));
      }),
    );
    setSession({ uid: 2, role: 2, rank: 0, name: 'オーナー', session: 'ssid-2', image: null });
    show('staff', staffMember);
    const kana = field(text.fields.name_kana) as HTMLInputElement;
    expect(kana.value).toBe('もり さくら');
    fireEvent.change(kana, { target: { value: 'モリ サクコ' } });
    fireEvent.click(screen.getByRole('button', { name: text.submitEdit }));
    await waitFor(() => expect(bodies).toHaveLength(1));
    expect(bodies[0]).toMatchObject({ uid: 7, name: '森 さくら', name_kana: 'もり さくこ' });
  });

  it('leaves out a reading it did not change, so a change made in the profile beside it stays', async () => {
    const bodies: Record<string, unknown>[] = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (_url: string, init: RequestInit) => {
        bodies.push(JSON.parse(String(init.body)) as Record<string, unknown>);
        return new Response(JSON.stringify({ rows: [staffMember] }));
      }),
    );
    setSession({ uid: 2, role: 2, rank: 0, name: 'オーナー', session: 'ssid-2', image: null });
    show('staff', staffMember);
    fireEvent.change(field(text.fields.name), { target: { value: '森 さくら子' } });
    fireEvent.click(screen.getByRole('button', { name: text.submitEdit }));
    await waitFor(() => expect(bodies).toHaveLength(1));
    expect(bodies[0]).toMatchObject({ uid: 7, name: '森 さくら子' });
    expect(bodies[0]).not.toHaveProperty('name_kana');
  });
});
