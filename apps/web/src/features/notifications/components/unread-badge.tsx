import { plural, t } from '@lingui/core/macro';
import styles from './unread-badge.module.css';

/** The accessible name of a link to the notifications: "Notifications, 3 unread". */
export function notificationsLabel(unread: number): string {
  return unread > 0 ? t`Notifications, ${plural(unread, { other: '# unread' })}` : t`Notifications`;
}

/** The count on the bell; hidden from assistive tech, which reads it in the link's name. */
export function UnreadBadge({ count }: { count: number }) {
  if (count <= 0) return null;
  return (
    <span className={styles.badge} aria-hidden="true">
      {count > 99 ? '99+' : count}
    </span>
  );
}
