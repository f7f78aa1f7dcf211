import { APP_NAME, TAGLINE } from '@share-arts/contract';
import { useLocation } from 'react-router';
import { signInPath } from '../../lib/session';
import { ButtonLink } from '../../ui/button';
import styles from './visitor-panel.module.css';

/** In the side menu's place for a visitor: what Share Arts is, and a way in that comes back to this page. */
export function VisitorPanel() {
  const location = useLocation();
  const here = `${location.pathname}${location.search}${location.hash}`;
  return (
    <aside className={styles.panel} aria-labelledby="visitor-panel-title">
      <h2 id="visitor-panel-title" className={styles.title}>
        New to {APP_NAME}?
      </h2>
      <p className={styles.text}>{TAGLINE} Sign up to like, comment, save and follow artists.</p>
      <ButtonLink to={signInPath(here, 'signup')} block>
        Sign up
      </ButtonLink>
      <ButtonLink to={signInPath(here)} variant="secondary" block>
        Sign in
      </ButtonLink>
    </aside>
  );
}
