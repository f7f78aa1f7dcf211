import { Compass, House, Settings, UserRound, type LucideIcon } from 'lucide-react';
import { NavLink } from 'react-router';
import styles from './side-menu.module.css';

const ITEMS: { to: string; label: string; icon: LucideIcon }[] = [
  { to: '/', label: 'Home', icon: House },
  { to: '/explore', label: 'Explore', icon: Compass },
  { to: '/profile', label: 'Profile', icon: UserRound },
  { to: '/settings', label: 'Settings', icon: Settings },
];

/** Home, Explore, Profile, Settings: a side menu on wide screens, a bottom bar on phones. */
export function SideMenu() {
  return (
    <nav aria-label="Main" className={styles.nav}>
      <ul className={styles.list}>
        {ITEMS.map(({ to, label, icon: Icon }) => (
          <li key={to}>
            <NavLink to={to} end={to === '/'} className={styles.link}>
              <Icon className={styles.icon} aria-hidden="true" size="1.35em" />
              <span>{label}</span>
            </NavLink>
          </li>
        ))}
      </ul>
    </nav>
  );
}
