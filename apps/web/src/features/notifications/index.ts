// The notifications feature's public face: the bell, the unread count and what the live stream updates.
// The page itself is lazy (see app/router.tsx).
export { invalidateNotifications, setUnreadCount, useUnreadCount } from './api/unread-count';
export { BellIcon, NotificationBell } from './components/notification-bell';
export { notificationsLabel } from './components/unread-badge';
