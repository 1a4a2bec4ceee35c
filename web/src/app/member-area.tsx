import { QueryClientProvider } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useNavigate } from 'react-router';
import { queryClient } from '@/lib/query-client';
import { AppLayout } from '@/components/layouts/app-layout';
import { CallLayer } from '@/features/call/components/call-layer';
import { startMemberServices } from './member-services';

/**
 * The member area's root, loaded with its first screen: the query cache around its screens, and the member
 * services started on the first visit, and the call overlay. A visitor on a public page loads neither (product.md §2.7).
 */
export function MemberArea() {
  const navigate = useNavigate();
  useEffect(() => startMemberServices(navigate), [navigate]);
  return (
    <QueryClientProvider client={queryClient}>
      <AppLayout />
      {/* Above every member screen: a call goes on while the user moves between screens. */}
      <CallLayer />
    </QueryClientProvider>
  );
}
