import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  AddSeriesWorkBody,
  CreateSeriesBody,
  EditSeriesWorkBody,
  MoveSeriesWorkBody,
  PostIdParams,
  PostSeriesList,
  SERIES_LIMITS,
  SeriesIdParams,
  SeriesListQuery,
  SeriesPage,
  SeriesResponse,
  SeriesSlugParams,
  SeriesWorkPage,
  SeriesWorkParams,
  SeriesWorksQuery,
  UpdateSeriesBody,
  UsernameParams,
} from '@share-arts/contract';
import { Type } from 'typebox';
import { sendJson } from '../../lib/json-text.js';
import { bearerAuth, errorResponses } from '../../lib/route-schema.js';
import type { AuthGuards } from '../../plugins/auth.js';
import { originOf } from '../../plugins/static-files.js';
import { replyWithFeed } from '../atom/index.js';
import { SERIES_ERRORS, type SeriesService } from './series.service.js';

const TAGS = ['series'];
const SEEN =
  'Works the viewer may not see (hidden or removed by moderation, an artist who shows works to signed-in people only, a blocked pair) are left out of every list; a series whose artist is suspended, or is in a blocked pair with the viewer, answers 404.';
const OWNER_ONLY = `Only the series' owner: anyone else 403 "${SERIES_ERRORS.notOwner}"; an unknown series 404. Answers the series after the change.`;

/** Series (issue 41): an artist's own works in order, their pages, follows, and the post page's links. */
export const seriesRoutes: FastifyPluginAsyncTypebox<{
  series: SeriesService;
  guards: AuthGuards;
  publicOrigin: string | undefined;
}> = async (app, { series, guards, publicOrigin }) => {
  app.get(
    '/users/:username/series',
    {
      preHandler: guards.optionalUser,
      schema: {
        tags: TAGS,
        summary: "An artist's series",
        description: `Their series, the newest first, by keyset (cursor, limit). Signed out, an artist who shows their works to signed-in people only has none to show (an empty list). Unknown user, suspended artist or a blocked pair: 404. ${SEEN}`,
        params: UsernameParams,
        querystring: SeriesListQuery,
        response: { 200: SeriesPage, ...errorResponses(400, 404) },
      },
    },
    async (request, reply) =>
      sendJson(reply, await series.list(request.params.username, request.query, request.userId ?? null)),
  );

  app.get(
    '/users/:username/series/:slug',
    {
      preHandler: guards.optionalUser,
      schema: {
        tags: TAGS,
        summary: 'One series by its page address',
        description: `The series at /{username}/series/{slug}: its title, description, cover, counts and whether the viewer follows it. ${SEEN}`,
        params: SeriesSlugParams,
        response: { 200: SeriesResponse, ...errorResponses(404) },
      },
    },
    async (request, reply) =>
      sendJson(reply, {
        series: await series.bySlug(request.params.username, request.params.slug, request.userId ?? null),
      }),
  );

  app.get(
    '/users/:username/series/:slug/feed.atom',
    {
      schema: {
        tags: TAGS,
        summary: "A series' Atom feed",
        description:
          "The series' newest additions first (up to 30), as the artist's feed writes them (application/atom+xml), as a visitor sees them. ETag and Last-Modified are set; a matching If-None-Match answers 304. Unknown series: 404.",
        params: SeriesSlugParams,
        response: {
          200: { description: 'The Atom feed', content: { 'application/atom+xml': { schema: Type.String() } } },
          304: { description: 'Not modified since the ETag the reader sent', type: 'null' },
          ...errorResponses(404),
        },
      },
    },
    async (request, reply) =>
      replyWithFeed(
        request,
        reply,
        await series.feed(request.params.username, request.params.slug, originOf(request, publicOrigin)),
      ),
  );

  app.post(
    '/series',
    {
      preHandler: guards.requireUser,
      schema: {
        tags: TAGS,
        summary: 'Start a series',
        description: `A new series of yours (empty; add works with POST /api/series/{id}/works). Its slug is made from the title, '-2', '-3'… when you have one by that name. At most ${SERIES_LIMITS.perArtist} series: the next is 400 "${SERIES_ERRORS.tooMany}".`,
        security: bearerAuth,
        body: CreateSeriesBody,
        response: { 201: SeriesResponse, ...errorResponses(400, 401) },
      },
    },
    async (request, reply) => sendJson(reply.code(201), { series: await series.create(request.userId!, request.body) }),
  );

  app.patch(
    '/series/:id',
    {
      preHandler: guards.requireUser,
      schema: {
        tags: TAGS,
        summary: 'Rename, describe or choose the cover of your series',
        description: `Only the fields sent change. A new title gives a new slug (the old page address then 404s). coverPostId must be a work of the series: else 400 "${SERIES_ERRORS.coverNotInSeries}". ${OWNER_ONLY}`,
        security: bearerAuth,
        params: SeriesIdParams,
        body: UpdateSeriesBody,
        response: { 200: SeriesResponse, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request, reply) =>
      sendJson(reply, { series: await series.update(request.userId!, request.params.id, request.body) }),
  );

  app.delete(
    '/series/:id',
    {
      preHandler: guards.requireUser,
      schema: {
        tags: TAGS,
        summary: 'Delete your series',
        description: `The series goes; its works stay on your profile. Only its owner: anyone else 403; unknown series 404.`,
        security: bearerAuth,
        params: SeriesIdParams,
        response: { 204: { description: 'Deleted', type: 'null' }, ...errorResponses(401, 403, 404) },
      },
    },
    async (request, reply) => {
      await series.remove(request.userId!, request.params.id);
      return reply.code(204).send(null);
    },
  );

  app.get(
    '/series/:id/works',
    {
      preHandler: guards.optionalUser,
      schema: {
        tags: TAGS,
        summary: "A series' works, in order",
        description: `The works in the artist's order, each with its chapter, by keyset (cursor, limit): a series of 10,000 works pages like any list. ${SEEN}`,
        params: SeriesIdParams,
        querystring: SeriesWorksQuery,
        response: { 200: SeriesWorkPage, ...errorResponses(400, 404) },
      },
    },
    async (request, reply) =>
      sendJson(reply, await series.works(request.params.id, request.query, request.userId ?? null)),
  );

  app.post(
    '/series/:id/works',
    {
      preHandler: guards.requireUser,
      schema: {
        tags: TAGS,
        summary: 'Add one of your works to your series',
        description: `after: the work it goes right after (null: first; omitted: last). Someone else's work: 400 "${SERIES_ERRORS.notYourWork}"; a work from another server: 400 "${SERIES_ERRORS.remoteWork}"; already in it: 409; more than ${SERIES_LIMITS.worksMax} works: 400. The series' followers are notified. ${OWNER_ONLY}`,
        security: bearerAuth,
        params: SeriesIdParams,
        body: AddSeriesWorkBody,
        response: { 201: SeriesResponse, ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    async (request, reply) =>
      sendJson(reply.code(201), { series: await series.addWork(request.userId!, request.params.id, request.body) }),
  );

  app.patch(
    '/series/:id/works/:postId',
    {
      preHandler: guards.requireUser,
      schema: {
        tags: TAGS,
        summary: "Name or clear a work's chapter",
        description: `chapter: the chapter the work belongs to (null or empty: none). A work not in the series: 404. ${OWNER_ONLY}`,
        security: bearerAuth,
        params: SeriesWorkParams,
        body: EditSeriesWorkBody,
        response: { 200: SeriesResponse, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request, reply) =>
      sendJson(reply, {
        series: await series.editWork(request.userId!, request.params.id, request.params.postId, request.body.chapter),
      }),
  );

  app.delete(
    '/series/:id/works/:postId',
    {
      preHandler: guards.requireUser,
      schema: {
        tags: TAGS,
        summary: 'Take a work out of your series',
        description: `The work stays on your profile. A work not in the series: 404. ${OWNER_ONLY}`,
        security: bearerAuth,
        params: SeriesWorkParams,
        response: { 200: SeriesResponse, ...errorResponses(401, 403, 404) },
      },
    },
    async (request, reply) =>
      sendJson(reply, {
        series: await series.removeWork(request.userId!, request.params.id, request.params.postId),
      }),
  );

  app.post(
    '/series/:id/works/:postId/move',
    {
      preHandler: guards.requireUser,
      schema: {
        tags: TAGS,
        summary: 'Move a work within your series',
        description: `One move per request (drag and keyboard alike): after is the work it goes right after, null to make it first. after not in the series: 400 "${SERIES_ERRORS.afterNotInSeries}"; itself: 400. A work not in the series: 404. ${OWNER_ONLY}`,
        security: bearerAuth,
        params: SeriesWorkParams,
        body: MoveSeriesWorkBody,
        response: { 200: SeriesResponse, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request, reply) =>
      sendJson(reply, {
        series: await series.moveWork(request.userId!, request.params.id, request.params.postId, request.body.after),
      }),
  );

  app.get(
    '/posts/:postId/series',
    {
      preHandler: guards.optionalUser,
      schema: {
        tags: TAGS,
        summary: 'The series a work is in',
        description: `Each series of the artist holding the work, with the work's chapter and the previous and next works the viewer may see (the post page's links). A work the viewer may not see: 404. ${SEEN}`,
        params: PostIdParams,
        response: { 200: PostSeriesList, ...errorResponses(404) },
      },
    },
    async (request, reply) => sendJson(reply, await series.ofPost(request.params.postId, request.userId ?? null)),
  );

  for (const method of ['post', 'delete'] as const) {
    app[method](
      '/series/:id/follow',
      {
        preHandler: guards.requireUser,
        schema: {
          tags: TAGS,
          summary: method === 'post' ? 'Follow a series' : 'Stop following a series',
          description:
            method === 'post'
              ? 'A work added to it notifies you (kind series-work). Following twice is fine. A series not there for you: 404. Answers the series.'
              : 'Not following it is fine. Answers the series.',
          security: bearerAuth,
          params: SeriesIdParams,
          response: { 200: SeriesResponse, ...errorResponses(401, 404) },
        },
      },
      async (request, reply) =>
        sendJson(reply, {
          series: await (method === 'post' ? series.follow : series.unfollow)(request.userId!, request.params.id),
        }),
    );
  }
};
