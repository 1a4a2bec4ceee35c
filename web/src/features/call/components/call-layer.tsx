import { roleGroup } from '@enishi/contract';
import { useSession } from '@/lib/session';
import { calls, useCall } from '../controller';
import { CallOverlay } from './call-overlay';

/** The app's call overlay, over every screen of the member area. */
export function CallLayer() {
  const staff = roleGroup(useSession()?.role) === 'staff';
  return <CallOverlay call={useCall()} actions={calls} viewerIsStaff={staff} />;
}
