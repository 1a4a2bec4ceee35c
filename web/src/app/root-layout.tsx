import { Outlet } from 'react-router';
import { useNavigating } from './navigation';
import { OfflineNotice } from './offline-notice';
import { UpdatePrompt } from './update-prompt';
import './root-layout.css';

/**
 * Around every screen: a navigation progress line, the offline notice and the update prompt (the router
 * restores scroll positions itself). The call overlay lives in the member area (member-area.tsx).
 */
export function RootLayout() {
  return (
    <>
      {useNavigating() ? <div className="nav-progress" aria-hidden="true" /> : null}
      <Outlet />
      <OfflineNotice />
      <UpdatePrompt />
    </>
  );
}
