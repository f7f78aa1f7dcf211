import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { PushKey, PushRenewBody, PushSubscriptionBody, PushSubscriptionState } from '@share-arts/contract';
import { bearerAuth, errorResponses } from '../../lib/route-schema.js';
import type { AuthGuards } from '../../plugins/auth.js';
import type { PushService } from './push.service.js';

const TAGS = ['push'];

/** Web Push (issue 44): the server's key, and this session's device's subscription. */
export const pushRoutes: FastifyPluginAsyncTypebox<{
  push: PushService;
  publicKey: string;
  guards: AuthGuards;
}> = async (app, { push, publicKey, guards }) => {
  app.get(
    '/push/key',
    {
      schema: {
        tags: TAGS,
        summary: "The server's VAPID public key",
        description: "pushManager.subscribe's applicationServerKey: the key our pushes are signed with (RFC 8292).",
        response: { 200: PushKey },
      },
    },
    // Revalidated like every API answer (plugins/cache-headers.ts): the key changes when the server's keys do.
    async () => ({ publicKey }),
  );

  app.get(
    '/push/subscription',
    {
      preHandler: guards.requireUser,
      schema: {
        tags: TAGS,
        summary: "This device's push subscription",
        description: 'Whether the device of this sign-in (its session) is pushed notifications, and which kinds.',
        security: bearerAuth,
        response: { 200: PushSubscriptionState, ...errorResponses(401) },
      },
    },
    async (request) => push.get(request.sessionId),
  );

  app.put(
    '/push/subscription',
    {
      preHandler: guards.requireUser,
      schema: {
        tags: TAGS,
        summary: 'Push notifications to this device, or change which',
        description:
          "With the PushSubscription's endpoint and keys (PushSubscription.toJSON()): this session's device is pushed (a subscription it had is replaced; the same endpoint under another session is taken from it). With kinds alone: the kinds it is pushed change. The endpoint must be an https push service on a public address, at most 1,024 characters; p256dh a P-256 public key (65 bytes) and auth 16 bytes, in base64url. Ending the session or logging out removes it.",
        security: bearerAuth,
        body: PushSubscriptionBody,
        response: { 200: PushSubscriptionState, ...errorResponses(400, 401) },
      },
    },
    async (request) => push.put(request.userId!, request.sessionId, request.body),
  );

  app.delete(
    '/push/subscription',
    {
      preHandler: guards.requireUser,
      schema: {
        tags: TAGS,
        summary: 'Stop pushing notifications to this device',
        security: bearerAuth,
        response: { 204: { description: 'Not pushed any more', type: 'null' }, ...errorResponses(401) },
      },
    },
    async (request, reply) => {
      await push.remove(request.sessionId);
      return reply.code(204).send(null);
    },
  );

  app.post(
    '/push/renew',
    {
      schema: {
        tags: TAGS,
        summary: 'A subscription the browser replaced (the service worker)',
        description:
          'Sent by the service worker on pushsubscriptionchange, without a token: the old subscription is proved by its endpoint and auth secret (which only the browser and this server know), and takes the new endpoint and keys. 404 when no subscription has them (the session ended, or it was never subscribed).',
        body: PushRenewBody,
        response: { 204: { description: 'Renewed', type: 'null' }, ...errorResponses(400, 404) },
      },
    },
    async (request, reply) => {
      await push.renew(request.body);
      return reply.code(204).send(null);
    },
  );
};
