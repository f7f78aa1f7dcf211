import { Trans, useLingui } from '@lingui/react/macro';
import { APP_NAME } from '@share-arts/contract';
import { use } from 'react';
import { TAGLINE_TEXT } from '../../../lib/tagline';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { ArtMosaic } from '../../../ui/art-mosaic';
import { BrandMark } from '../../../ui/brand-mark';
import { buttonClassName } from '../../../ui/button-class';
import { LandingNavContext } from '../landing-nav';
import styles from './landing-page.module.css';

export default function LandingPage() {
  const { t, i18n } = useLingui();
  useDocumentTitle(t`Landing`);
  // Carry the remembered path through Get Started → Login so signing in returns there.
  const nav = use(LandingNavContext);

  return (
    <main className={styles.page}>
      <div className={styles.copy}>
        <span className={styles.mark}>
          <BrandMark size={1.5} />
          <Trans>A home for artists</Trans>
        </span>
        <h1 className={styles.title}>{APP_NAME}</h1>
        <p className={styles.tagline}>{i18n._(TAGLINE_TEXT)}</p>
        {/* A link the page's navigation opens (landing-nav.ts); a new tab or window opens it as links do. */}
        <a
          href="/login"
          className={buttonClassName({}, styles.cta)}
          onPointerEnter={nav?.prepare}
          onFocus={nav?.prepare}
          onClick={(event) => {
            if (!nav || event.button !== 0 || event.metaKey || event.altKey || event.ctrlKey || event.shiftKey) return;
            event.preventDefault();
            nav.go('/login', nav.state);
          }}
        >
          <Trans>Get Started</Trans>
        </a>
      </div>
      <ArtMosaic className={styles.art} />
    </main>
  );
}
