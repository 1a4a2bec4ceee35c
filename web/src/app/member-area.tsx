import { QueryClientProvider } from '@tanstack/react-query';
import { Suspense, lazy, useEffect } from 'react';
import { useNavigate } from 'react-router';
import { keepLastScreens } from '@/lib/keep-last-screen';
import { queryClient } from '@/lib/query-client';
import { AppLayout, useDeskLayout } from '@/components/layouts/app-layout';
import { CallLayer } from '@/features/call/components/call-layer';
import { AccountNotices } from '@/features/security/components/account-notices-host';
import { answerProofRequests } from '@/features/security/components/reauth-host';
import { setPhraseViewer } from '@/lib/phrase-breaks';
import { useSession } from '@/lib/session';
import { can } from '@enishi/contract';
import { startMemberServices } from './member-services';
import { AppLoading } from './app-loading';

/** Staff's desktop shell: its own chunk, never loaded by members. */
const StaffShell = lazy(async () => ({ default: (await import('./staff-shell')).StaffShell }));

/** Staff hear of setting requests live, whatever screen is open (product.md §2.8): a chunk members never load. */
const SettingEvents = lazy(async () => {
  const { useSettingEvents } = await import('@/features/setting/hooks/use-setting-events');
  return {
    default: function SettingEvents() {
      useSettingEvents();
      return null;
    },
  };
});

/**
 * The member area's root, loaded with its first screen: the query cache around its screens, and the member
 * services started on the first visit, and the call overlay. A visitor on a public page loads neither (product.md §2.7).
 */
export function MemberArea() {
  const navigate = useNavigate();
  // In a task of their own, after the first drawing's effects: one long task fewer while the phone opens the app.
  useEffect(() => {
    const start = setTimeout(() => startMemberServices(navigate), 0);
    return () => clearTimeout(start);
  }, [navigate]);
  // A sensitive change refused for want of fresh proof asks for it (product.md §11.8).
  useEffect(answerProofRequests, []);
  // Staff at a desk (1024 px and more) get the back office's side navigation instead (product.md §2.8).
  const desk = useDeskLayout();
  const staff = can(useSession(), 'desk.use');
  // A member's phone reopens on the screen it last drew (product.md §15.6).
  useEffect(() => (staff ? undefined : keepLastScreens()), [staff]);
  // Set while rendering, before the screens below ask for their first phrase breaks (children's effects run
  // before this component's own).
  setPhraseViewer(staff ? 'staff' : 'member');
  return (
    <QueryClientProvider client={queryClient}>
      <AccountNotices />
      {staff ? (
        <Suspense fallback={null}>
          <SettingEvents />
        </Suspense>
      ) : null}
      {desk ? (
        <Suspense fallback={<AppLoading />}>
          <StaffShell />
        </Suspense>
      ) : (
        <AppLayout />
      )}
      {/* Above every member screen: a call goes on while the user moves between screens. */}
      <CallLayer />
    </QueryClientProvider>
  );
}
