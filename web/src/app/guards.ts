import { can, type Permission } from '@enishi/contract';
import { redirect } from './redirect';
import { forgetUser, isSessionAccepted } from '@/lib/auth';
import { getSession } from '@/lib/session';

/*
 * Route guards (product.md §2 navigation guard), run as loaders so that a screen never renders for someone
 * who may not see it.
 */

/**
 * Login-only routes: no stored session goes to /enter. The stored session opens the screen at once while the
 * server is asked in parallel (cached briefly); a clear no then forgets the user and calls `leave` (to /enter).
 * The server checks every call by itself, so a screen drawn for a dead session shows nothing it would not.
 */
export function requireSession(leave: () => void): null {
  const session = getSession();
  if (!session) throw redirect('/enter');
  // Nothing else until the second factor the owner requires is set up (product.md §11.7).
  if (session.secondFactorSetup) throw redirect('/security/setup');
  void isSessionAccepted(session).then((accepted) => {
    if (accepted) return;
    // Not a session logged in since; and leave whether this or a call's 401 (api-client.ts) forgot it.
    if (getSession()?.session === session.session) forgetUser();
    if (!getSession()) leave();
  });
  return null;
}

/** The second-factor setup screen: a session kept on this device (its calls check it with the server). */
export function requireStoredSession(): null {
  if (!getSession()) throw redirect('/enter');
  return null;
}

/** A screen for whoever holds a permission (the contract's `can`, as the server decides it); others go home. */
export const requirePermission = (permission: Permission) => (): null => {
  const session = getSession();
  if (!session) throw redirect('/enter');
  if (!can(session, permission)) throw redirect('/');
  return null;
};

/** Admin screens: staff (roles 1 to 6) only; members go home. */
export const requireStaff = requirePermission('desk.use');
/** Staff admin: the owner (role 2) only. */
export const requireOwner = requirePermission('staff.manage');
/** The club's calendar: the admin and the owner (roles 1, 2, product.md §9.3). */
export const requireCalendarManager = requirePermission('calendar.manage');
/** Reports: the admin and the owner (roles 1, 2, product.md §2.9). */
export const requireReportViewer = requirePermission('report.view');
/** The member site: male members (role 101) only. */
export const requireMaleMember = requirePermission('member_site.open');
/** Voice calls (/call, /contact): staff and male members, the only people who call (product.md §17). */
export const requireCaller = requirePermission('call.place');

export { isPublicPath, requireEntryType } from './public-routes';
