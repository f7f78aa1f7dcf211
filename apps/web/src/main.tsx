import './styles/global.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router/dom';
import { router } from './app/router';

const root = document.getElementById('root');
if (!root) throw new Error('Missing #root element');

// The providers (TanStack Query, toasts) are not here: the root route mounts them once a route that
// needs them has loaded (app/root-layout.tsx), so /landing's first visit stays small.
createRoot(root).render(
  <StrictMode>
    <RouterProvider router={router} />
  </StrictMode>,
);
