import { can } from '@enishi/contract';
import { lazy, Suspense, useState } from 'react';
import { useSession } from '@/lib/session';
import { calls, useCall } from '../controller';

/*
 * The overlay is in the controller's chunk (scripts/chunk-groups.ts): both load with the first call frame or phone
 * button, in one request, so a member who never calls downloads neither.
 */
const CallOverlay = lazy(() => import('./call-overlay').then((module) => ({ default: module.CallOverlay })));

/** The app's call overlay, over every screen of the member area, from the first call on. */
export function CallLayer() {
  const call = useCall();
  const staff = can(useSession(), 'desk.use');
  // Kept once shown: the overlay holds state across phases (the call shrunk to a bar, say).
  const [shown, setShown] = useState(false);
  if (!shown && call.phase !== 'idle') setShown(true);
  if (!shown) return null;
  return (
    <Suspense fallback={null}>
      <CallOverlay call={call} actions={calls} viewerIsStaff={staff} />
    </Suspense>
  );
}
