import { APP_NAME, TAGLINE } from '@share-arts/contract';
import { useLocation } from 'react-router';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { ArtMosaic } from '../../../ui/art-mosaic';
import { BrandMark } from '../../../ui/brand-mark';
import { ButtonLink } from '../../../ui/button';
import styles from './landing-page.module.css';

export default function LandingPage() {
  useDocumentTitle('Landing');
  // Carry the remembered path through Get Started → Login so signing in returns there.
  const location = useLocation();

  return (
    <main className={styles.page}>
      <div className={styles.copy}>
        <span className={styles.mark}>
          <BrandMark size={1.5} />A home for artists
        </span>
        <h1 className={styles.title}>{APP_NAME}</h1>
        <p className={styles.tagline}>{TAGLINE}</p>
        <ButtonLink to="/login" state={location.state} className={styles.cta}>
          Get Started
        </ButtonLink>
      </div>
      <ArtMosaic className={styles.art} />
    </main>
  );
}
