// @vitest-environment jsdom
import { jaMember } from '@enishi/contract';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ConfirmProvider } from '@/components/ui/confirm-dialog';
import type { Session } from '@/lib/session';
import { Profile } from './profile';

/*
 * Mypage's card and links by role (product.md §2, §6.5, §18.4): a man's rank, course link and member-site menu
 * (with his setting history), a member's own profile, a woman's setting history; staff none of them.
 */

const person = (role: number, uid: number): Session => ({
  uid,
  role,
  rank: 2,
  name: '山田太郎',
  session: 's',
  image: null,
});

function show(session: Session) {
  render(
    <QueryClientProvider client={new QueryClient()}>
      <ConfirmProvider>
        <MemoryRouter>
          <Profile session={session} />
        </MemoryRouter>
      </ConfirmProvider>
    </QueryClientProvider>,
  );
  const links = (to: string) =>
    screen.queryAllByRole('link').filter((link) => link.getAttribute('href') === to);
  return {
    rank: screen.queryByText(jaMember.mypage.rank) !== null,
    ownProfile: links('/mypage/profile').length,
    course: links('/course').length,
    settingHistory: links('/setting/history').length,
    memberSite: screen.queryByRole('navigation', { name: jaMember.memberMenu.label }) !== null,
  };
}

beforeEach(() => {
  // The record and the devices stay loading: the card is drawn from the session.
  vi.stubGlobal(
    'fetch',
    vi.fn(() => new Promise(() => {})),
  );
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('mypage by role', () => {
  it('shows a man his rank, his own profile, the course and the member site with his setting history', () => {
    expect(show(person(101, 7))).toEqual({
      rank: true,
      ownProfile: 1,
      course: 1,
      settingHistory: 1,
      memberSite: true,
    });
  });

  it('shows a woman her own profile and her setting history, no rank, course or member site', () => {
    expect(show(person(201, 8))).toEqual({
      rank: false,
      ownProfile: 1,
      course: 0,
      settingHistory: 1,
      memberSite: false,
    });
  });

  it.each([1, 2, 3, 6])('shows staff (role %i) none of the members’ links', (role) => {
    expect(show(person(role, role))).toEqual({
      rank: false,
      ownProfile: 0,
      course: 0,
      settingHistory: 0,
      memberSite: false,
    });
  });
});
