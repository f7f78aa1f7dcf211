import { QueryClientProvider } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import Toaster from '../ui/toaster';
import { queryClient } from './query-client';

export function Providers({ children }: { children: ReactNode }) {
  return (
    <QueryClientProvider client={queryClient}>
      {children}
      <Toaster />
    </QueryClientProvider>
  );
}
