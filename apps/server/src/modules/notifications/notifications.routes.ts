import { acceptedLocale } from '../../lib/i18n.js';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { MarkReadBody, NotificationListQuery, NotificationPage, UnreadCount } from '@share-arts/contract';
import { bearerAuth, errorResponses } from '../../lib/route-schema.js';
import type { AuthGuards } from '../../plugins/auth.js';
import type { NotificationsService } from './notifications.service.js';

export const notificationsRoutes: FastifyPluginAsyncTypebox<{
  notifications: NotificationsService;
  guards: AuthGuards;
}> = async (app, { notifications, guards }) => {
  app.get(
    '/notifications',
    {
      preHandler: guards.requireUser,
      schema: {
        tags: ['notifications'],
        summary: 'Your notifications, newest first',
        description:
          'Someone liked your post, commented on it, upvoted your comment or followed you (never your own actions; an undone action removes its unread notification). Keyset paging.',
        security: bearerAuth,
        querystring: NotificationListQuery,
        response: { 200: NotificationPage, ...errorResponses(400, 401, 404) },
      },
    },
    (request) =>
      notifications.list(
        request.userId!,
        request.query,
        acceptedLocale(request.headers['accept-language']) ?? undefined,
      ),
  );

  app.get(
    '/notifications/unread-count',
    {
      preHandler: guards.requireUser,
      schema: {
        tags: ['notifications'],
        summary: 'How many notification groups are unread',
        security: bearerAuth,
        response: { 200: UnreadCount, ...errorResponses(401, 404) },
      },
    },
    async (request) => ({ unreadCount: await notifications.unreadCount(request.userId!) }),
  );

  app.post(
    '/notifications/read',
    {
      preHandler: guards.requireUser,
      schema: {
        tags: ['notifications'],
        summary: 'Mark one notification group, or all, as read',
        security: bearerAuth,
        body: MarkReadBody,
        response: { 200: UnreadCount, ...errorResponses(400, 401, 404) },
      },
    },
    async (request) => ({
      unreadCount: await notifications.markRead(request.userId!, 'key' in request.body ? request.body.key : undefined),
    }),
  );
};
