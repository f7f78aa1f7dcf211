import { Outlet } from 'react-router';
import styles from './app-layout.module.css';
import { Header } from './header';
import { SideMenu } from './side-menu';

/** The signed-in area: fixed header, side panel with the menu, and the main area. */
export default function AppLayout() {
  return (
    <>
      <a href="#main-content" className={styles.skipLink}>
        Skip to content
      </a>
      <Header />
      <div className={styles.body}>
        <div className={styles.sidePanel}>
          <SideMenu />
        </div>
        <main id="main-content" tabIndex={-1} className={styles.main}>
          <div className={styles.content}>
            <Outlet />
          </div>
        </main>
      </div>
    </>
  );
}
