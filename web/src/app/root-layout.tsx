import { lazy, Suspense } from 'react';
import { Outlet } from 'react-router';
import { useWrongAddress } from '@/lib/wrong-address';
import { useNavigating } from './navigation';
import { OfflineNotice } from './offline-notice';
import { UpdatePrompt } from './update-prompt';
import './root-layout.css';

/**
 * Around every screen: a navigation progress line, the offline notice, the wrong-address notice and the update
 * prompt (the router restores scroll positions itself). The call overlay lives in the member area
 * (member-area.tsx).
 */
export function RootLayout() {
  return (
    <>
      {useNavigating() ? <div className="nav-progress" aria-hidden="true" /> : null}
      <Outlet />
      <OfflineNotice />
      <WrongAddress />
      <UpdatePrompt />
    </>
  );
}

const WrongAddressNotice = lazy(() => import('./wrong-address-notice'));

/** The app opened at an address the chat socket refuses: the notice naming the right one, loaded when needed. */
function WrongAddress() {
  const address = useWrongAddress();
  if (!address) return null;
  return (
    <Suspense fallback={null}>
      <WrongAddressNotice address={address} />
    </Suspense>
  );
}
