import './styles/global.css';
import { startTransition, StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router/dom';
import { I18nProvider } from '@lingui/react';
import { createAppRouter } from './app/router';
import { whenIdle } from './lib/when-idle';
import { activateLocale, i18n, pageLocale } from './lib/i18n';

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
//
// The first render is in the page's language (issue 43): a language other than English waits for its catalogue,
// asked for now, beside the route's chunks.
const language = activateLocale(pageLocale());
setTimeout(() => {
  const router = createAppRouter();
  // A catalogue that cannot load (offline) leaves the page in English rather than blank.
  const ready = language.catch(() => activateLocale('en'));
  const render = () =>
    void ready.then(() =>
      startTransition(() =>
        root.render(
          <StrictMode>
            {/* Every message follows the language: switching it re-renders them all, without a reload (issue 43).
                Above the router, so its error pages are translated too. */}
            <I18nProvider i18n={i18n}>
              <RouterProvider router={router} />
            </I18nProvider>
          </StrictMode>,
        ),
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

// The service worker (issue 44): registered once the page has loaded and the browser is idle, from a chunk of its
// own, so neither the registration nor the worker's script is on the first paint's path.
// (On a page the server drew, the boot script loads this entry after the load event.)
const registerWorker = () =>
  whenIdle(
    () =>
      void import('./lib/pwa/register').then(
        (pwa) => pwa.registerServiceWorker(),
        () => {},
      ),
  );
if (document.readyState === 'complete') registerWorker();
else window.addEventListener('load', registerWorker, { once: true });
