import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  DRAFT_LIMITS,
  DraftIdParams,
  DraftListQuery,
  DraftPage,
  DraftResponse,
  LIMITS,
  PublishedDraftResponse,
  SaveDraftBody,
  ScheduleDraftBody,
} from '@share-arts/contract';
import { sendJson } from '../../lib/json-text.js';
import { bearerAuth, errorResponses } from '../../lib/route-schema.js';
import type { AuthGuards } from '../../plugins/auth.js';
import type { PostsService } from '../posts/index.js';
import { DRAFT_ERRORS, type DraftsService } from './drafts.service.js';

const TAGS = ['drafts'];
const PRIVATE =
  'A draft is its author’s alone: anyone else, and an unknown draft, 404. Drafts are counted nowhere and shown in no list, search, tag, feed or federation.';
const PICTURES = `pictures: the whole list in order (at most ${LIMITS.postPicturesMax}), each { mediaId, alt? } uploaded by you with POST /api/media (purpose post), in no post and no other draft; alt is saved on the picture. A refused picture is 400 with what to do ("${DRAFT_ERRORS.pictureInPost}"); seriesId not yours: 400.`;

/** Drafts and scheduled posts (issue 41): the composer's work in progress, private to its author. */
export const draftsRoutes: FastifyPluginAsyncTypebox<{
  drafts: DraftsService;
  posts: PostsService;
  guards: AuthGuards;
}> = async (app, { drafts, posts, guards }) => {
  app.get(
    '/drafts',
    {
      preHandler: guards.requireUser,
      schema: {
        tags: TAGS,
        summary: 'Your drafts',
        description: `Your drafts and scheduled posts, the last changed first, by keyset (cursor, limit). ${PRIVATE}`,
        security: bearerAuth,
        querystring: DraftListQuery,
        response: { 200: DraftPage, ...errorResponses(400, 401) },
      },
    },
    async (request, reply) => sendJson(reply, await drafts.list(request.userId!, request.query)),
  );

  app.post(
    '/drafts',
    {
      preHandler: guards.requireUser,
      schema: {
        tags: TAGS,
        summary: 'Start a draft',
        description: `A new draft with what the composer has so far (every field optional; content may be empty). At most ${DRAFT_LIMITS.perArtist} drafts: the next is 400 "${DRAFT_ERRORS.tooMany}". ${PICTURES} Answers it with revision 1.`,
        security: bearerAuth,
        body: SaveDraftBody,
        response: { 201: DraftResponse, ...errorResponses(400, 401) },
      },
    },
    async (request, reply) => sendJson(reply.code(201), { draft: await drafts.create(request.userId!, request.body) }),
  );

  app.get(
    '/drafts/:id',
    {
      preHandler: guards.requireUser,
      schema: {
        tags: TAGS,
        summary: 'One of your drafts',
        description: `The draft to resume in the composer. ${PRIVATE}`,
        security: bearerAuth,
        params: DraftIdParams,
        response: { 200: DraftResponse, ...errorResponses(401, 404) },
      },
    },
    async (request, reply) => sendJson(reply, { draft: await drafts.read(request.params.id, request.userId!) }),
  );

  app.put(
    '/drafts/:id',
    {
      preHandler: guards.requireUser,
      schema: {
        tags: TAGS,
        summary: 'Save your draft',
        description: `Fields sent replace the draft's; left out, they stay. revision is required: the one your copy has. When the draft was saved since (another tab or device), 409 "${DRAFT_ERRORS.stale}" and nothing changes. ${PICTURES} A picture taken out is attached to nothing: it is deleted a day after its upload. Answers the draft with its next revision. ${PRIVATE}`,
        security: bearerAuth,
        params: DraftIdParams,
        body: SaveDraftBody,
        response: { 200: DraftResponse, ...errorResponses(400, 401, 404, 409) },
      },
    },
    async (request, reply) =>
      sendJson(reply, { draft: await drafts.save(request.userId!, request.params.id, request.body) }),
  );

  app.delete(
    '/drafts/:id',
    {
      preHandler: guards.requireUser,
      schema: {
        tags: TAGS,
        summary: 'Discard your draft',
        description: `The draft goes with its pictures (rows and files). ${PRIVATE}`,
        security: bearerAuth,
        params: DraftIdParams,
        response: { 204: { description: 'Discarded', type: 'null' }, ...errorResponses(401, 404) },
      },
    },
    async (request, reply) => {
      await drafts.discard(request.userId!, request.params.id);
      return reply.code(204).send(null);
    },
  );

  app.post(
    '/drafts/:id/schedule',
    {
      preHandler: guards.requireUser,
      schema: {
        tags: TAGS,
        summary: 'Schedule your draft, or move its time',
        description: `at: when to publish (seconds are dropped), in the future ("${DRAFT_ERRORS.schedulePast}") and at most ${DRAFT_LIMITS.scheduleDaysMax} days ahead; timeZone: the IANA zone it was chosen in, shown with it. A job publishes it within a minute of that time, with every effect of posting, then the draft goes; if publishing fails for a reason you must fix (a picture now in another post, no words), the draft stays, unscheduled, with publishError. The draft needs words (400 "${DRAFT_ERRORS.scheduleEmpty}"). revision, when sent, must be current (409). ${PRIVATE}`,
        security: bearerAuth,
        params: DraftIdParams,
        body: ScheduleDraftBody,
        response: { 200: DraftResponse, ...errorResponses(400, 401, 404, 409) },
      },
    },
    async (request, reply) =>
      sendJson(reply, { draft: await drafts.schedule(request.userId!, request.params.id, request.body) }),
  );

  app.delete(
    '/drafts/:id/schedule',
    {
      preHandler: guards.requireUser,
      schema: {
        tags: TAGS,
        summary: 'Cancel the scheduled time of your draft',
        description: `The draft stays, unscheduled. Not scheduled: 400 "${DRAFT_ERRORS.notScheduled}". ${PRIVATE}`,
        security: bearerAuth,
        params: DraftIdParams,
        response: { 200: DraftResponse, ...errorResponses(400, 401, 404, 409) },
      },
    },
    async (request, reply) => sendJson(reply, { draft: await drafts.unschedule(request.userId!, request.params.id) }),
  );

  app.post(
    '/drafts/:id/publish',
    {
      preHandler: guards.requireUser,
      schema: {
        tags: TAGS,
        summary: 'Publish your draft now',
        description: `Posts it as POST /api/posts does (Home, live, mentions, federation), adds it to its series, then the draft goes. What the post is refused for (no words, a picture now in another post) is answered as posting answers it (400, 404) and kept on the draft as publishError. Being published by the scheduled job at this moment: 409. ${PRIVATE}`,
        security: bearerAuth,
        params: DraftIdParams,
        response: { 201: PublishedDraftResponse, ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    async (request, reply) => {
      const postId = await drafts.publish(request.userId!, request.params.id);
      return sendJson(reply.code(201), { post: await posts.getPost(postId, request.userId!) });
    },
  );
};
