import { APP_NAME } from '@share-arts/contract';
import { Trans, useLingui } from '@lingui/react/macro';
import { useLocation } from 'react-router';
import { signInPath } from '../../lib/session';
import { ButtonLink } from '../../ui/button';
import { TAGLINE_TEXT } from '../../lib/tagline';
import styles from './visitor-panel.module.css';

/** In the side menu's place for a visitor: what Share Arts is, and a way in that comes back to this page. */
export function VisitorPanel() {
  const { i18n } = useLingui();
  const location = useLocation();
  const here = `${location.pathname}${location.search}${location.hash}`;
  return (
    <aside className={styles.panel} aria-labelledby="visitor-panel-title">
      <h2 id="visitor-panel-title" className={styles.title}>
        <Trans>New to {APP_NAME}?</Trans>
      </h2>
      <p className={styles.text}>
        {i18n._(TAGLINE_TEXT)} <Trans>Sign up to like, comment, save and follow artists.</Trans>
      </p>
      <ButtonLink to={signInPath(here, 'signup')} block>
        <Trans>Sign up</Trans>
      </ButtonLink>
      <ButtonLink to={signInPath(here)} variant="secondary" block>
        <Trans>Sign in</Trans>
      </ButtonLink>
    </aside>
  );
}
