import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  COMMISSION_LIMITS,
  CommissionsBody,
  CommissionsResponse,
  CommissionsUsernameParams,
} from '@share-arts/contract';
import { bearerAuth, errorResponses } from '../../lib/route-schema.js';
import type { AuthGuards } from '../../plugins/auth.js';
import { COMMISSION_ERRORS, type CommissionsService } from './commissions.service.js';

const TAGS = ['commissions'];
const SEEN =
  'An unknown user, a suspended artist, a person on another server or a blocked pair (either way): 404. Example works the viewer may not see (hidden or removed by moderation; signed out, an artist who shows works to signed-in people only) are left out.';

/** Open for commissions (issue 42): an artist's panel, its owner's changes, and "Tell me when they open". */
export const commissionsRoutes: FastifyPluginAsyncTypebox<{
  commissions: CommissionsService;
  guards: AuthGuards;
}> = async (app, { commissions, guards }) => {
  app.get(
    '/users/:username/commissions',
    {
      preHandler: guards.optionalUser,
      schema: {
        tags: TAGS,
        summary: "An artist's commission panel",
        description: `Whether they are open for commissions, and on what terms (open false, and the rest empty, for an artist who never said). viewer.watching: you asked to be told when they open. ${SEEN}`,
        params: CommissionsUsernameParams,
        response: { 200: CommissionsResponse, ...errorResponses(404) },
      },
    },
    async (request) => ({
      commissions: await commissions.panel({ username: request.params.username }, request.userId ?? null),
    }),
  );

  app.put(
    '/commissions',
    {
      preHandler: guards.requireUser,
      schema: {
        tags: TAGS,
        summary: 'Fill in or change your commission panel',
        description: `The whole panel (what is left out is emptied). slots.taken > slots.total: 400 "${COMMISSION_ERRORS.slotsTaken}"; price.min > price.max: 400 "${COMMISSION_ERRORS.priceOrder}"; a termsUrl not https: 400; a language that is not BCP 47: 400; examples (at most ${COMMISSION_LIMITS.examplesMax}) must be your own works posted here and not hidden by moderation: else 400 "${COMMISSION_ERRORS.notYourWork}". Opening (from closed) notifies the followers who asked to be told, each at most once a day.`,
        security: bearerAuth,
        body: CommissionsBody,
        response: { 200: CommissionsResponse, ...errorResponses(400, 401) },
      },
    },
    async (request) => ({ commissions: await commissions.save(request.userId!, request.body) }),
  );

  for (const method of ['post', 'delete'] as const) {
    app[method](
      '/users/:username/commissions/watch',
      {
        preHandler: guards.requireUser,
        schema: {
          tags: TAGS,
          summary: method === 'post' ? 'Tell me when they open' : 'Stop telling me when they open',
          description:
            method === 'post'
              ? `When the artist opens for commissions (again) you get one notification (kind commissions-open), at most one a day. Followers only: else 400 "${COMMISSION_ERRORS.notFollowing}"; yourself: 400. Asking twice is fine. ${SEEN} Answers the panel.`
              : `Not asking is fine. ${SEEN} Answers the panel.`,
          security: bearerAuth,
          params: CommissionsUsernameParams,
          response: { 200: CommissionsResponse, ...errorResponses(400, 401, 404) },
        },
      },
      async (request) => ({
        commissions: await commissions.watch(request.userId!, request.params.username, method === 'post'),
      }),
    );
  }
};
