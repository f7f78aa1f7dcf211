import type { ServerContext } from '../../context.js';
import { createNotificationsService } from './notifications.service.js';
import { notificationsRoutes } from './notifications.routes.js';

/** The notifications module: the list and the unread count, and the reads the live stream makes. */
export async function wireNotifications(shared: ServerContext) {
  const { app, db, guards } = shared;
  const notifications = createNotificationsService({ db });
  await app.register(notificationsRoutes, { prefix: '/api', notifications, guards });
  return { notifications };
}

export type NotificationsModule = Awaited<ReturnType<typeof wireNotifications>>;
