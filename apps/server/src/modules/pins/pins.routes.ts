import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  ERRORS,
  PinBody,
  PinnedPosts,
  PINS_MAX,
  PostIdParams,
  ReorderPinsBody,
  UsernameParams,
} from '@share-arts/contract';
import { sendJson } from '../../lib/json-text.js';
import { bearerAuth, errorResponses } from '../../lib/route-schema.js';
import type { AuthGuards } from '../../plugins/auth.js';
import type { PinsService } from './pins.service.js';

const ANSWER = 'Answers your pinned posts after the change, in order (nextCursor is always null).';

/** Pinned works: a profile's list, pin, unpin and reorder. */
export const pinsRoutes: FastifyPluginAsyncTypebox<{ pins: PinsService; guards: AuthGuards }> = async (
  app,
  { pins, guards },
) => {
  app.get(
    '/users/:username/pins',
    {
      preHandler: guards.optionalUser,
      schema: {
        tags: ['pins'],
        summary: "A profile's pinned works",
        description: `Up to ${PINS_MAX} posts the artist pinned, in their order (shown first on the profile); nextCursor is always null. Unknown user: 404.`,
        params: UsernameParams,
        response: { 200: PinnedPosts, ...errorResponses(404) },
      },
    },
    async (request, reply) => sendJson(reply, await pins.pinned(request.params.username, request.userId)),
  );

  app.post(
    '/posts/:postId/pin',
    {
      // The body is optional: none is `{}` (pin last). A JSON null is a body, not a PinBody: refused (400).
      preValidation: async (request) => {
        if (request.body === undefined) request.body = {};
      },
      preHandler: guards.requireUser,
      schema: {
        tags: ['pins'],
        summary: 'Pin your post to your profile',
        description:
          `Pins it at position (0 is first; without a body or position, last). Pinning a pinned post again ` +
          `changes nothing, or moves it when a position is given. Someone else's post: 400 "${ERRORS.pinNotOwner}". ` +
          `A ${PINS_MAX + 1}th pin: 400 "${ERRORS.tooManyPins}". Unknown post: 404. ${ANSWER}`,
        security: bearerAuth,
        params: PostIdParams,
        body: PinBody,
        response: { 200: PinnedPosts, ...errorResponses(400, 401, 404) },
      },
    },
    async (request, reply) =>
      sendJson(reply, await pins.pin(request.userId!, request.params.postId, request.body?.position)),
  );

  app.delete(
    '/posts/:postId/pin',
    {
      // The body is optional: none is `{}` (pin last).
      preValidation: async (request) => {
        request.body ??= {};
      },
      preHandler: guards.requireUser,
      schema: {
        tags: ['pins'],
        summary: 'Unpin your post',
        description: `A post that is not pinned stays unpinned (200). Someone else's post: 400; unknown post: 404. Deleting a post unpins it. ${ANSWER}`,
        security: bearerAuth,
        params: PostIdParams,
        response: { 200: PinnedPosts, ...errorResponses(400, 401, 404) },
      },
    },
    async (request, reply) => sendJson(reply, await pins.unpin(request.userId!, request.params.postId)),
  );

  app.put(
    '/users/me/pins',
    {
      preHandler: guards.requireUser,
      schema: {
        tags: ['pins'],
        summary: 'Reorder your pinned works',
        description: `postIds lists every pinned post once, in the new order. A post listed twice, one that is not pinned, or a list that leaves one out: 400 with the reason. ${ANSWER}`,
        security: bearerAuth,
        body: ReorderPinsBody,
        response: { 200: PinnedPosts, ...errorResponses(400, 401) },
      },
    },
    async (request, reply) => sendJson(reply, await pins.reorder(request.userId!, request.body.postIds)),
  );
};
