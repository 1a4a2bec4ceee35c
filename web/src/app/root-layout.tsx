import { Outlet, ScrollRestoration, useNavigation } from 'react-router';
import { OfflineNotice } from './offline-notice';
import { UpdatePrompt } from './update-prompt';
import './root-layout.css';

/**
 * Around every screen: scroll restoration, a navigation progress line, the offline notice and the update prompt.
 * The call overlay lives in the member area (member-area.tsx).
 */
export function RootLayout() {
  const navigation = useNavigation();
  return (
    <>
      <ScrollRestoration />
      {navigation.state !== 'idle' ? <div className="nav-progress" aria-hidden="true" /> : null}
      <Outlet />
      <OfflineNotice />
      <UpdatePrompt />
    </>
  );
}
