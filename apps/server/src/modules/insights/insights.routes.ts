import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { InsightsQuery, PostIdParams, PostInsights, ProfileInsights, ViewBody } from '@share-arts/contract';
import { addressKey } from '../../lib/client-address.js';
import { HttpError } from '../../lib/http-error.js';
import { sendJson } from '../../lib/json-text.js';
import type { RateLimiter } from '../../lib/rate-limiter.js';
import { bearerAuth, errorResponses } from '../../lib/route-schema.js';
import type { AuthGuards } from '../../plugins/auth.js';
import { INSIGHTS_ERRORS, type InsightsService } from './insights.service.js';
import { isBot, type ViewCounter } from './view-counter.js';

const TAGS = ['insights'];

export const VIEW_ERRORS = {
  subject: 'Send either postId (a work shown) or username (a profile shown), not both and not neither.',
} as const;

/** Views one address may have counted per 10 minutes; past it, beacons answer 204 and count nothing. */
export const VIEWS_PER_ADDRESS = { max: 600, windowMs: 10 * 60_000 };

const HOST = /^[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*$/;

/** Insights (issue 42): the views beacon, and an artist's own counts. */
export const insightsRoutes: FastifyPluginAsyncTypebox<{
  insights: InsightsService;
  counter: ViewCounter;
  guards: AuthGuards;
  limiter: RateLimiter;
}> = async (app, { insights, counter, guards, limiter }) => {
  app.post(
    '/views',
    {
      preHandler: guards.optionalUser,
      schema: {
        tags: TAGS,
        summary: 'Count a view of a work or a profile (the web app’s beacon)',
        description:
          "Sent when a work's page, the viewer (lightbox) or a profile is shown, with where the viewer came from. Counted at most once per person (signed in) or visitor (signed out: told apart by a hash of the address and user agent under a salt made each day, kept in memory or Redis, never stored) per work or profile per day (UTC); the artist's own views and bots' (by user agent) are not counted, nor more than 600 views from one address in 10 minutes. Views are written in batches every 10 s. Always 204, counted or not, so that nothing can be learnt from it.",
        body: ViewBody,
        response: { 204: { description: 'Received', type: 'null' }, ...errorResponses(400) },
      },
    },
    async (request, reply) => {
      const { postId, username, source, host } = request.body;
      if ((postId === undefined) === (username === undefined)) throw new HttpError(400, VIEW_ERRORS.subject);
      const userAgent = request.headers['user-agent'];
      if (counter.enabled && !isBot(userAgent)) {
        const address = addressKey(request.ip);
        const { count } = await limiter.add(`views:${address}`, VIEWS_PER_ADDRESS);
        if (count <= VIEWS_PER_ADDRESS.max) {
          const site = source === 'external' ? (host ?? '').toLowerCase().replace(/\.$/, '') : '';
          const external = source === 'external' && HOST.test(site);
          await counter.record({
            kind: postId !== undefined ? 'post' : 'profile',
            subject: postId ?? username!.toLowerCase(),
            viewerId: request.userId ?? null,
            address,
            userAgent,
            source: source === 'external' && !external ? 'direct' : source,
            host: external ? site : '',
          });
        }
      }
      return reply.code(204).send(null);
    },
  );

  app.get(
    '/insights/profile',
    {
      preHandler: guards.requireUser,
      schema: {
        tags: TAGS,
        summary: 'Your insights: your profile and works',
        description:
          "Your profile's views and your works' views, likes, saves and additions to others' collections per day over the last days (7, 30 or 90, UTC, today included), where your profile's views came from, and the works seen most. Only ever your own: viewers are never named.",
        security: bearerAuth,
        querystring: InsightsQuery,
        response: { 200: ProfileInsights, ...errorResponses(400, 401) },
      },
    },
    async (request, reply) => sendJson(reply, await insights.profile(request.userId!, request.query.days ?? 30)),
  );

  app.get(
    '/insights/posts/:postId',
    {
      preHandler: guards.requireUser,
      schema: {
        tags: TAGS,
        summary: "Your work's insights",
        description: `One of your works: its views, likes, saves and additions to others' collections per day over the last days (7, 30 or 90, UTC), and where its views came from. Its artist only: anyone else, or an unknown work, 404 "${INSIGHTS_ERRORS.postNotFound}"`,
        security: bearerAuth,
        params: PostIdParams,
        querystring: InsightsQuery,
        response: { 200: PostInsights, ...errorResponses(400, 401, 404) },
      },
    },
    async (request, reply) =>
      sendJson(reply, await insights.post(request.userId!, request.params.postId, request.query.days ?? 30)),
  );
};
