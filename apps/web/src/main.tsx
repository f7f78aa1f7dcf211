import './styles/global.css';
import { startTransition, StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router/dom';
import { createAppRouter } from './app/router';

const element = document.getElementById('root');
if (!element) throw new Error('Missing #root element');
const root = createRoot(element);

// The providers (TanStack Query, toasts) are not here: the root route mounts them once a route that
// needs them has loaded (app/root-layout.tsx), so /landing's first visit stays small.
//
// Evaluating the bundle is one long task on a slow phone; starting the router (matching the address,
// asking for the page's chunks) is another piece of work. A timer splits the two, and the first render
// is a transition, which React renders in slices, so none of them blocks input for long.
//
// A shared page the server rendered (issue 22) stays on screen until the router has loaded its route's
// modules: the first render then replaces it with the page itself, not with the loading fallback.
setTimeout(() => {
  const router = createAppRouter();
  const render = () =>
    startTransition(() =>
      root.render(
        <StrictMode>
          <RouterProvider router={router} />
        </StrictMode>,
      ),
    );
  if (!element.firstChild || router.state.initialized) render();
  else {
    const stop = router.subscribe((state) => {
      if (state.initialized) {
        stop();
        render();
      }
    });
  }
});
