import './styles/global.css';
import { createRoot } from 'react-dom/client';
import { whenIdle } from './lib/when-idle';
import { activateLocale, pageLocale } from './lib/i18n';

const element = document.getElementById('root');
if (!element) throw new Error('Missing #root element');
const root = createRoot(element);

// The providers (TanStack Query, toasts) are not here: the root route mounts them once a route that
// needs them has loaded (app/root-layout.tsx), so /landing's first visit stays small. Nor is the router:
// a first visit of /landing draws the page without it (features/landing/pages/standalone-landing.tsx), and every
// other page asks for it beside the entry (the boot script preloads app/start-app.tsx's chunk).
//
// Evaluating the bundle is one long task on a slow phone; starting the router (matching the address,
// asking for the page's chunks) is another piece of work. A timer splits the two, and the first render
// is a transition, which React renders in slices, so none of them blocks input for long.
//
// The first render is in the page's language (issue 43): a language other than English waits for its catalogue,
// asked for now, beside the route's chunks. A catalogue that cannot load (offline) leaves the page in English
// rather than blank.
const ready = activateLocale(pageLocale()).catch(() => activateLocale('en'));
const startRouter = () =>
  // Whatever the root shows by then (a page the server drew, /landing) stays until the router's page is ready.
  import('./app/start-app').then((app) => app.startApp(root, ready, element.firstChild !== null));
setTimeout(() => {
  if (window.location.pathname.replace(/\/+$/, '') === '/landing') {
    // Without its chunk (offline, a failed download), the router's page shows what went wrong.
    import('./features/landing/pages/standalone-landing').then(
      (landing) => landing.showLanding(root, ready, startRouter),
      () => void startRouter(),
    );
  } else void startRouter();
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
