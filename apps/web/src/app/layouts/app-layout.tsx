import { Trans } from '@lingui/react/macro';
import { useEffect } from 'react';
import { Outlet } from 'react-router';
import { SuggestionsPanel } from '../../features/people';
import { followAccountLocale } from '../../lib/i18n';
import { useCurrentUser } from '../../lib/session';
import { useNotePage } from '../../lib/view-beacon';
import { LiveRegion } from '../live/live-region';
import { UnreadTitle, useLiveUpdates } from '../live/use-live-updates';
import { useRouteFlag } from '../route-handle';
import styles from './app-layout.module.css';
import { Header } from './header';
import { keepClearOfBars } from './keep-clear-of-bars';
import { SideMenu } from './side-menu';
import { VisitorPanel } from './visitor-panel';

/** The notifications page's chunk (see its route in router.tsx for why it is imported from here). */
export const loadNotificationsPage = () => import('../../features/notifications/pages/notifications-page');
/** The moderation queue (moderators and admins), through a small chunk that lists the page's own. */
export const loadModerationPage = () =>
  import('../../features/moderation/pages/load-moderation-page').then((module) => module.loadModerationPage());

/**
 * The signed-in area: fixed header, side panel with the menu, the main area and, beside the feeds, suggestions.
 * A visitor reading a shared page gets the slim header (Sign in, Sign up) and, in the menu's place, an
 * invitation to join (the page keeps its width, which its pictures' `sizes` count on).
 */
export default function AppLayout() {
  const { data: me } = useCurrentUser();
  useLiveUpdates(me?._id);
  // The language kept on the account follows the person to this device (issue 43).
  const language = me?.settings?.language;
  useEffect(() => followAccountLocale(language), [language]);
  // The page before a work's or a profile's view: where it came from (issue 42, lib/view-beacon.ts).
  useNotePage();
  const suggestions = useRouteFlag('suggestions');
  const wide = useRouteFlag('wide');
  return (
    <>
      <a href="#main-content" className={styles.skipLink}>
        <Trans>Skip to content</Trans>
      </a>
      <Header />
      <div className={`${styles.body} ${suggestions ? styles.withAside : ''}`}>
        <div className={styles.sidePanel}>{me ? <SideMenu /> : <VisitorPanel />}</div>
        <main id="main-content" tabIndex={-1} className={styles.main} onFocus={keepClearOfBars}>
          <div className={wide ? `${styles.content} ${styles.wide}` : styles.content}>
            {/* Narrow screens: one sideways-scrolling row above the page (CSS shows one of the two). */}
            {suggestions && <SuggestionsPanel variant="strip" className={styles.strip} />}
            <Outlet />
          </div>
        </main>
        {suggestions && (
          <div className={styles.aside}>
            <SuggestionsPanel variant="column" />
          </div>
        )}
      </div>
      <LiveRegion />
      {/* A visitor has no notifications (the count needs a token). */}
      {me && <UnreadTitle />}
    </>
  );
}
