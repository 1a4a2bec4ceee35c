import type { HydrationState } from 'react-router';
import { AppProvider } from './provider';
import { AppRouter } from './router';

export function App({ hydrationData }: { hydrationData?: HydrationState }) {
  return (
    <AppProvider>
      <AppRouter {...(hydrationData ? { hydrationData } : {})} />
    </AppProvider>
  );
}
