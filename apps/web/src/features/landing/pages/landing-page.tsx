import { Trans, useLingui } from '@lingui/react/macro';
import { APP_NAME } from '@share-arts/contract';
import { useLocation } from 'react-router';
import { TAGLINE_TEXT } from '../../../lib/tagline';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { ArtMosaic } from '../../../ui/art-mosaic';
import { BrandMark } from '../../../ui/brand-mark';
import { ButtonLink } from '../../../ui/button';
import styles from './landing-page.module.css';

export default function LandingPage() {
  const { t, i18n } = useLingui();
  useDocumentTitle(t`Landing`);
  // Carry the remembered path through Get Started → Login so signing in returns there.
  const location = useLocation();

  return (
    <main className={styles.page}>
      <div className={styles.copy}>
        <span className={styles.mark}>
          <BrandMark size={1.5} />
          <Trans>A home for artists</Trans>
        </span>
        <h1 className={styles.title}>{APP_NAME}</h1>
        <p className={styles.tagline}>{i18n._(TAGLINE_TEXT)}</p>
        <ButtonLink to="/login" state={location.state} className={styles.cta}>
          <Trans>Get Started</Trans>
        </ButtonLink>
      </div>
      <ArtMosaic className={styles.art} />
    </main>
  );
}
