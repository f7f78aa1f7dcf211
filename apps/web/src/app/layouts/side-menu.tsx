import { ChartColumn, CircleAlert, Compass, House, Inbox, Settings, UserRound, type LucideIcon } from 'lucide-react';
import { NavLink } from 'react-router';
import { canModerate } from '../../features/moderation';
import { BellIcon, notificationsLabel, useUnreadCount } from '../../features/notifications';
import { useCurrentUser } from '../../lib/session';
import styles from './side-menu.module.css';

const ITEMS: { to: string; label: string; icon: LucideIcon }[] = [
  { to: '/', label: 'Home', icon: House },
  { to: '/explore', label: 'Explore', icon: Compass },
  { to: '/profile', label: 'Profile', icon: UserRound },
  { to: '/settings', label: 'Settings', icon: Settings },
];

function NavItem({ to, label, icon: Icon, className }: (typeof ITEMS)[number] & { className?: string }) {
  return (
    <li className={className}>
      <NavLink to={to} end={to === '/'} className={styles.link}>
        <Icon className={styles.icon} aria-hidden="true" size="1.35em" />
        <span>{label}</span>
      </NavLink>
    </li>
  );
}

/** The bottom bar's Notifications, with the unread count (only this item re-renders when it changes). */
function NotificationsItem() {
  const unread = useUnreadCount();
  return (
    <li className={styles.barOnly}>
      <NavLink to="/notifications" className={styles.link} aria-label={notificationsLabel(unread)}>
        <BellIcon unread={unread} size="1.35em" className={styles.icon} />
        <span>Notifications</span>
      </NavLink>
    </li>
  );
}

/**
 * Home, Explore, Profile, Settings: a side menu on wide screens, a bottom bar on phones. The bar also
 * has Notifications, which wider screens reach from the bell in the header.
 */
export function SideMenu() {
  const { data: me } = useCurrentUser();
  return (
    <nav aria-label="Main" className={styles.nav}>
      <ul className={styles.list}>
        {ITEMS.slice(0, 2).map((item) => (
          <NavItem key={item.to} {...item} />
        ))}
        <NotificationsItem />
        {ITEMS.slice(2).map((item) => (
          <NavItem key={item.to} {...item} />
        ))}
        {/* Your insights (issue 42): on phones, from each of your works' pages (the bar has room for five). */}
        <NavItem to="/insights" label="Insights" icon={ChartColumn} className={styles.wideOnly} />
        {/* Inquiries (issue 42): on phones, from their notifications (the bar has room for five). */}
        <NavItem to="/inquiries" label="Inquiries" icon={Inbox} className={styles.wideOnly} />
        {/* Moderators and admins: the queue of reports (on phones, from Settings: the bar has room for five). */}
        {canModerate(me) && (
          <NavItem to="/moderation" label="Moderation" icon={CircleAlert} className={styles.wideOnly} />
        )}
      </ul>
    </nav>
  );
}
