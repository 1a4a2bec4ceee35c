import { afterEach, describe, expect, it, vi } from 'vitest';
import { clearLocalState } from '@/lib/local-state';
import { getSession, setSession } from '@/lib/session';
import {
  isPublicPath,
  requireCaller,
  requireMaleMember,
  requireOwner,
  requireSession,
  requireStaff,
} from './guards';
import { Redirect } from './redirect';

/** The server's answer to /api/auth, as the guard hears it (lib/auth.ts), settled when the test says so. */
const answer = vi.hoisted(() => ({ settle: (_accepted: boolean) => {} }));
vi.mock('@/lib/auth', () => ({
  isSessionAccepted: () =>
    new Promise<boolean>((resolve) => {
      answer.settle = resolve;
    }),
  forgetUser: () => clearLocalState(),
}));

const as = (role: number) => setSession({ uid: 1, role, rank: 0, name: '山田', session: 's', image: null });

/** The redirect a guard throws, or null when it lets the user through. */
function outcome(guard: () => null): string | null {
  try {
    guard();
    return null;
  } catch (thrown) {
    if (thrown instanceof Redirect) return thrown.to;
    throw thrown;
  }
}

describe('route guards', () => {
  afterEach(() => clearLocalState());

  it('sends visitors without a session to /enter', () => {
    expect(outcome(requireStaff)).toBe('/enter');
  });

  it('lets staff roles 1 to 6 into admin screens and sends members home', () => {
    for (const role of [1, 2, 3, 6]) {
      as(role);
      expect(outcome(requireStaff)).toBeNull();
    }
    for (const role of [101, 201]) {
      as(role);
      expect(outcome(requireStaff)).toBe('/');
    }
  });

  it('keeps staff administration to the owner', () => {
    as(2);
    expect(outcome(requireOwner)).toBeNull();
    as(3);
    expect(outcome(requireOwner)).toBe('/');
  });

  // Each guard asks for its own permission: one asking for another (desk.use, member_site.open) would let the
  // wrong people in or keep the right ones out (product.md §17: staff and male members call; women do not).
  it('lets staff and male members into the call screens, and sends women home', () => {
    for (const role of [1, 2, 3, 6, 101]) {
      as(role);
      expect(outcome(requireCaller), `role ${role}`).toBeNull();
    }
    as(201);
    expect(outcome(requireCaller)).toBe('/');
  });

  it('keeps the member site to male members', () => {
    as(101);
    expect(outcome(requireMaleMember)).toBeNull();
    for (const role of [1, 2, 6, 201]) {
      as(role);
      expect(outcome(requireMaleMember), `role ${role}`).toBe('/');
    }
  });

  it('knows the public routes', () => {
    expect(['/login', '/enter', '/intro/male', '/intro/female'].every(isPublicPath)).toBe(true);
    expect(['/', '/mypage', '/staff/menu'].some(isPublicPath)).toBe(false);
  });

  it('opens a login-only screen at once, and leaves once the server turns the session down', async () => {
    as(101);
    const leave = vi.fn();
    expect(outcome(() => requireSession(leave))).toBeNull();
    expect(leave).not.toHaveBeenCalled();
    answer.settle(false);
    await vi.waitFor(() => expect(leave).toHaveBeenCalledTimes(1));
    expect(getSession()).toBeNull();
  });

  it('stays when the server accepts the session', async () => {
    as(101);
    const leave = vi.fn();
    requireSession(leave);
    answer.settle(true);
    await Promise.resolve();
    await Promise.resolve();
    expect(leave).not.toHaveBeenCalled();
    expect(getSession()).not.toBeNull();
  });
});
