import { I18nProvider } from '@lingui/react';
import { startTransition, StrictMode } from 'react';
import type { Root } from 'react-dom/client';
import { i18n } from '../../../lib/i18n';
import { LandingNavContext, type LandingNav } from '../landing-nav';
import LandingPage from './landing-page';

/** React Router's entry in `history.state`: its location state is `usr`, its position `idx`. */
interface RouterEntry {
  usr?: unknown;
  key?: string;
  idx?: number;
}

/**
 * A first visit of /landing, drawn without the router (issue 43's budget: React Router is 29 KB of gzip, more than
 * the page's margin). The router starts when the visitor leaves the page: "Get Started" writes the new address
 * into the history as the router writes it (with the state it carries), and a move in the history (Back, Forward)
 * starts it too; it then draws the page the address names in place of this one.
 */
export function showLanding(root: Root, ready: Promise<unknown>, startRouter: () => Promise<void>): void {
  let started: Promise<void> | undefined;
  const start = () => {
    window.removeEventListener('popstate', start);
    started ??= startRouter();
    return started;
  };
  const here = (window.history.state ?? {}) as RouterEntry;
  const nav: LandingNav = {
    state: here.usr ?? null,
    go: (to, state) => {
      const idx = here.idx ?? 0;
      window.history.replaceState({ ...here, idx }, '');
      const entry: RouterEntry = { usr: state, key: Math.random().toString(36).slice(2, 10), idx: idx + 1 };
      window.history.pushState(entry, '', to);
      void start();
    },
    prepare: () => void import('../../../app/start-app'),
  };
  window.addEventListener('popstate', start);
  void ready.then(() =>
    startTransition(() =>
      root.render(
        <StrictMode>
          <I18nProvider i18n={i18n}>
            <LandingNavContext value={nav}>
              <LandingPage />
            </LandingNavContext>
          </I18nProvider>
        </StrictMode>,
      ),
    ),
  );
}
