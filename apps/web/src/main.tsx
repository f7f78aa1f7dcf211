import './styles/global.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router/dom';
import { Providers } from './app/providers';
import { queryClient } from './app/query-client';
import { router } from './app/router';
import { currentUserQuery } from './lib/session';
import { getToken } from './lib/token-storage';

// Start verifying a stored token while the first page's code is still loading.
if (getToken()) void queryClient.prefetchQuery(currentUserQuery());

const root = document.getElementById('root');
if (!root) throw new Error('Missing #root element');

createRoot(root).render(
  <StrictMode>
    <Providers>
      <RouterProvider router={router} />
    </Providers>
  </StrictMode>,
);
