// The notifications module's public face: the list, the unread count, and the reads the live stream makes.
export { wireNotifications, type NotificationsModule } from './notifications.module.js';
export { decodeEventId, type LiveItem, type NotificationsService } from './notifications.service.js';
