import { APP_NAME } from '@share-arts/contract';
import { Trans, useLingui } from '@lingui/react/macro';
import { Link, useLocation } from 'react-router';
import { NotificationBell } from '../../features/notifications';
import { SearchBox } from '../../features/search';
import { signInPath, useCurrentUser } from '../../lib/session';
import { fullName } from '../../lib/user-name';
import { Avatar } from '../../ui/avatar';
import { BrandMark } from '../../ui/brand-mark';
import { ButtonLink } from '../../ui/button';
import styles from './header.module.css';
import { ThemeToggle } from './theme-toggle';

/**
 * A visitor reading a shared page (signed out): the brand, the theme and a way in, which brings them back
 * to this page.
 */
function VisitorHeader() {
  const location = useLocation();
  const here = `${location.pathname}${location.search}${location.hash}`;
  return (
    <header className={styles.header}>
      <Link to="/landing" className={styles.brand}>
        <BrandMark />
        <span className={styles.brandName}>{APP_NAME}</span>
      </Link>
      <div className={`${styles.actions} ${styles.visitor}`}>
        <ThemeToggle />
        <ButtonLink to={signInPath(here)} variant="secondary">
          <Trans>Sign in</Trans>
        </ButtonLink>
        <ButtonLink to={signInPath(here, 'signup')}>
          <Trans>Sign up</Trans>
        </ButtonLink>
      </div>
    </header>
  );
}

export function Header() {
  const { t } = useLingui();
  const { data: me } = useCurrentUser();
  if (!me) return <VisitorHeader />;
  return (
    <header className={styles.header}>
      <Link to="/" className={styles.brand}>
        <BrandMark />
        <span className={styles.brandName}>{APP_NAME}</span>
      </Link>
      <SearchBox />
      <div className={styles.actions}>
        <ThemeToggle />
        {/* At 560 px and below the bell moves to the bottom bar (side-menu.tsx). */}
        <NotificationBell className={styles.bell} />
        {/* The spec's profile icon: your photo, leading to Settings. */}
        <Link to="/settings" className={styles.iconLink} aria-label={t`Settings`}>
          {me ? <Avatar src={me.userPhoto} name={fullName(me)} size={2} decorative /> : null}
        </Link>
      </div>
    </header>
  );
}
