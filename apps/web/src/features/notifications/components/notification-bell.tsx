import { Bell } from 'lucide-react';
import { NavLink } from 'react-router';
import { useUnreadCount } from '../api/unread-count';
import styles from './notification-bell.module.css';
import { notificationsLabel, UnreadBadge } from './unread-badge';

/** The bell icon with the unread count on it, for a link that names it (see notificationsLabel). */
export function BellIcon({ unread, size = '1.4em', className }: { unread: number; size?: string; className?: string }) {
  return (
    <span className={`${styles.icon} ${className ?? ''}`}>
      <Bell aria-hidden="true" size={size} />
      <UnreadBadge count={unread} />
    </span>
  );
}

/** The header's bell: a link to /notifications named with the unread count. */
export function NotificationBell({ className }: { className?: string }) {
  const unread = useUnreadCount();
  return (
    <NavLink
      to="/notifications"
      className={`${styles.bell} ${className ?? ''}`}
      aria-label={notificationsLabel(unread)}
    >
      <BellIcon unread={unread} />
    </NavLink>
  );
}
