import { afterEach, describe, expect, it } from 'vitest';
import { clearLocalState } from '@/lib/local-state';
import { setSession } from '@/lib/session';
import { isPublicPath, requireOwner, requireStaff } from './guards';

const as = (role: number) => setSession({ uid: 1, role, rank: 0, name: '山田', session: 's', image: null });

/** The redirect a guard throws, or null when it lets the user through. */
function outcome(guard: () => null): string | null {
  try {
    guard();
    return null;
  } catch (thrown) {
    if (thrown instanceof Response) return thrown.headers.get('Location');
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

  it('knows the public routes', () => {
    expect(['/login', '/enter', '/intro/male', '/intro/female'].every(isPublicPath)).toBe(true);
    expect(['/', '/mypage', '/staff/menu'].some(isPublicPath)).toBe(false);
  });
});
