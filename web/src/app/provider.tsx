import { QueryClientProvider } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { queryClient } from '@/lib/query-client';
import { ConfirmProvider } from '@/components/ui/confirm-dialog';
import { ToastViewport } from '@/components/ui/toast-viewport';

export function AppProvider({ children }: { children: ReactNode }) {
  return (
    <QueryClientProvider client={queryClient}>
      <ConfirmProvider>
        {children}
        <ToastViewport />
      </ConfirmProvider>
    </QueryClientProvider>
  );
}
