import { QueryClientProvider } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { currentUserQuery } from '../lib/session';
import { getToken } from '../lib/token-storage';
import { ToastOutlet } from '../ui/toast-outlet';
import { queryClient } from './query-client';

// Start verifying a stored token as soon as this chunk arrives, alongside the page's own chunks.
if (getToken()) void queryClient.prefetchQuery(currentUserQuery());

/**
 * Server state and toasts. Loaded with the first route that needs them (see `load-providers.ts`),
 * so /landing ships neither TanStack Query nor the session and API client (and react-toastify comes
 * after the first render, see ui/toast-outlet.tsx).
 */
export function Providers({ children }: { children: ReactNode }) {
  return (
    <QueryClientProvider client={queryClient}>
      {children}
      <ToastOutlet />
    </QueryClientProvider>
  );
}

/** `children` inside the providers (what the root layout calls once this chunk has loaded). */
export function withProviders(children: ReactNode): ReactNode {
  return <Providers>{children}</Providers>;
}
