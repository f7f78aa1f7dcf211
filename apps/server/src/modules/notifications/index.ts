// The notifications module's public face: the list, the unread count, and the reads the live stream makes.
export {
  createNotificationsService,
  decodeEventId,
  type LiveItem,
  type NotificationsService,
} from './notifications.service.js';
export { notificationsRoutes } from './notifications.routes.js';
