import { I18nProvider } from '@lingui/react';
import { startTransition, StrictMode } from 'react';
import type { Root } from 'react-dom/client';
import { RouterProvider } from 'react-router/dom';
import { i18n } from '../lib/i18n';
import { createAppRouter } from './router';

/**
 * Starts the router at the window's address and draws the page it names into `root` (main.tsx imports this module
 * once it has started the language's catalogue; the boot script asks for it beside the entry on every page but
 * /landing, whose first visit does without it: features/landing/pages/standalone-landing.tsx).
 *
 * What `root` already shows stays on screen until the router has loaded its route's modules: a shared page the
 * server rendered (issue 22), or /landing drawn without the router. The first render then replaces it with the page
 * itself, not with the loading fallback.
 */
export function startApp(root: Root, ready: Promise<unknown>, drawn: boolean): Promise<void> {
  const router = createAppRouter();
  return new Promise((done) => {
    const render = () =>
      void ready.then(() =>
        startTransition(() => {
          root.render(
            <StrictMode>
              {/* Every message follows the language: switching it re-renders them all, without a reload (issue 43).
                  Above the router, so its error pages are translated too. */}
              <I18nProvider i18n={i18n}>
                <RouterProvider router={router} />
              </I18nProvider>
            </StrictMode>,
          );
          done();
        }),
      );
    if (!drawn || router.state.initialized) render();
    else {
      const stop = router.subscribe((state) => {
        if (state.initialized) {
          stop();
          render();
        }
      });
    }
  });
}
