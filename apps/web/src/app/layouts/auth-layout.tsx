import { APP_NAME } from '@share-arts/contract';
import { Link, Navigate, Outlet, useLocation } from 'react-router';
import { useCurrentUser } from '../../lib/session';
import { ArtMosaic } from '../../ui/art-mosaic';
import { BrandMark } from '../../ui/brand-mark';
import { FullPageLoading } from '../../ui/full-page-status';
import { rememberedPath } from '../guards/from-location';
import styles from './auth-layout.module.css';

/** Login and signup: no header or side menu; a signed-in user goes back to where they were going. */
export default function AuthLayout() {
  const location = useLocation();
  const { data: user, isPending } = useCurrentUser();

  if (isPending) return <FullPageLoading />;
  if (user) return <Navigate to={rememberedPath(location.state, location.search)} replace />;

  return (
    <div className={styles.page}>
      <div className={styles.art} aria-hidden="true">
        <ArtMosaic className={styles.artFrame} />
      </div>
      <main className={styles.main}>
        <Link to="/landing" className={styles.brand}>
          <BrandMark />
          <span>{APP_NAME}</span>
        </Link>
        <div className={styles.card}>
          <Outlet />
        </div>
      </main>
    </div>
  );
}
