// @vitest-environment jsdom
import { ja } from '@enishi/contract';
import { act, cleanup, render, screen, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';
import { clearLocalState } from '@/lib/local-state';
import { setCounters } from '@/lib/notifications';
import { setSession, type Session } from '@/lib/session';
import { AppLayout } from './app-layout';

const member: Session = { uid: 7, role: 101, rank: 1, name: '山田太郎', session: 's', image: null };
const staff: Session = { uid: 2, role: 3, rank: 0, name: '鈴木スタッフ', session: 's', image: null };

function show(session: Session) {
  setSession(session);
  render(
    <MemoryRouter>
      <AppLayout />
    </MemoryRouter>,
  );
  return within(screen.getByRole('navigation', { name: ja.footer.label }));
}

afterEach(() => {
  cleanup();
  clearLocalState();
});

// Unread counts on the footer (product.md §2.4): the same counters as the home tiles, named in words.
describe('footer counts', () => {
  it('puts a member’s counts on talk with staff, news and home (group talks), and names them', () => {
    const footer = show(member);
    act(() => setCounters({ fromStaff: 3, news: 1, setting: 2, fromMen: 9 }));
    expect(footer.getByRole('link', { name: ja.footer.withUnread(ja.footer.talkWithStaff, 3) })).toBeTruthy();
    expect(footer.getByRole('link', { name: ja.footer.withUnread(ja.footer.news, 1) })).toBeTruthy();
    expect(footer.getByRole('link', { name: ja.footer.withUnread(ja.footer.home, 2) })).toBeTruthy();
    expect(footer.getByRole('link', { name: ja.footer.mypage })).toBeTruthy();
    expect(
      footer.getByRole('link', { name: ja.footer.withUnread(ja.footer.talkWithStaff, 3) }).textContent,
    ).toBe(`3${ja.footer.talkWithStaff}${ja.footer.unread(3)}`);
  });

  it('puts the staff’s group talk count on the talk list, and nothing when all is read', () => {
    const footer = show(staff);
    act(() => setCounters({ setting: 4 }));
    expect(footer.getByRole('link', { name: ja.footer.withUnread(ja.footer.staffTalks, 4) })).toBeTruthy();
    expect(footer.getByRole('link', { name: ja.footer.home })).toBeTruthy();
    act(() => setCounters({ setting: 0 }));
    const talks = footer.getByRole('link', { name: ja.footer.staffTalks });
    expect(talks.textContent).toBe(ja.footer.staffTalks);
  });
});
