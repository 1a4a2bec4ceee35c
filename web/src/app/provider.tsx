import type { ReactNode } from 'react';
import { ConfirmProvider } from '@/components/ui/confirm-dialog';
import { ToastViewport } from '@/components/ui/toast-viewport';

/**
 * Around every screen, public pages included. The query cache is the member area's own (member-area.tsx): the public
 * pages load without it (product.md §2.7).
 */
export function AppProvider({ children }: { children: ReactNode }) {
  return (
    <ConfirmProvider>
      {children}
      <ToastViewport />
    </ConfirmProvider>
  );
}
