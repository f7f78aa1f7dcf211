import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  AddCollectionWorkBody,
  COLLECTION_LIMITS,
  CollectionIdParams,
  CollectionListQuery,
  CollectionPage,
  CollectionResponse,
  CollectionSlugParams,
  CollectionWorkPage,
  CollectionWorkParams,
  CollectionWorksQuery,
  CreateCollectionBody,
  EditCollectionWorkBody,
  MoveCollectionWorkBody,
  PostCollections,
  PostIdParams,
  UpdateCollectionBody,
  UsernameParams,
} from '@share-arts/contract';
import { sendJson } from '../../lib/json-text.js';
import { bearerAuth, errorResponses } from '../../lib/route-schema.js';
import type { AuthGuards } from '../../plugins/auth.js';
import { COLLECTION_ERRORS, type CollectionsService } from './collections.service.js';

const TAGS = ['collections'];
const SEEN =
  'A private collection is there for its owner alone: anyone else gets 404, as for a collection that does not exist. A collection whose owner is suspended, or is in a blocked pair with the viewer, answers 404. Works the viewer may not see (hidden or removed by moderation, a blocked pair, an artist who shows works to signed-in people only) are left out of every list.';
const OWNER_ONLY = `Only the collection's owner: anyone else 403 "${COLLECTION_ERRORS.notOwner}" (404 for a private one); an unknown collection 404. Saved (id \`saved\`) is fixed: 400. Answers the collection after the change.`;

/** Collections (issue 41): works by anyone gathered by anyone signed in, their pages, and the "Save to…" menu. */
export const collectionsRoutes: FastifyPluginAsyncTypebox<{
  collections: CollectionsService;
  guards: AuthGuards;
}> = async (app, { collections, guards }) => {
  app.get(
    '/users/:username/collections',
    {
      preHandler: guards.optionalUser,
      schema: {
        tags: TAGS,
        summary: "A person's collections",
        description: `Their public collections, the newest first, by keyset (cursor, limit); to their owner all of them, the first page starting with Saved (their bookmarks, id \`saved\`). Signed out, a person who shows their works to signed-in people only has none to show, nor has a suspended person (an empty list). Unknown user or a blocked pair: 404. ${SEEN}`,
        params: UsernameParams,
        querystring: CollectionListQuery,
        response: { 200: CollectionPage, ...errorResponses(400, 404) },
      },
    },
    async (request, reply) =>
      sendJson(reply, await collections.list(request.params.username, request.query, request.userId ?? null)),
  );

  app.get(
    '/users/:username/collections/:slug',
    {
      preHandler: guards.optionalUser,
      schema: {
        tags: TAGS,
        summary: 'One collection by its page address',
        description: `The collection at /{username}/collections/{slug}: its title, description, visibility, cover and count. The slug \`saved\` is the owner's Saved, for the owner alone. ${SEEN}`,
        params: CollectionSlugParams,
        response: { 200: CollectionResponse, ...errorResponses(404) },
      },
    },
    async (request, reply) =>
      sendJson(reply, {
        collection: await collections.bySlug(request.params.username, request.params.slug, request.userId ?? null),
      }),
  );

  app.post(
    '/collections',
    {
      preHandler: guards.requireUser,
      schema: {
        tags: TAGS,
        summary: 'Start a collection',
        description: `A new collection of yours, private unless visibility is public (empty; add works with POST /api/collections/{id}/works). Its slug is made from the title, '-2', '-3'… when you have one by that name. At most ${COLLECTION_LIMITS.perPerson} collections: the next is 400 "${COLLECTION_ERRORS.tooMany}".`,
        security: bearerAuth,
        body: CreateCollectionBody,
        response: { 201: CollectionResponse, ...errorResponses(400, 401) },
      },
    },
    async (request, reply) =>
      sendJson(reply.code(201), { collection: await collections.create(request.userId!, request.body) }),
  );

  app.patch(
    '/collections/:id',
    {
      preHandler: guards.requireUser,
      schema: {
        tags: TAGS,
        summary: 'Rename, describe, or make public or private your collection',
        description: `Only the fields sent change. A new title gives a new slug (the old page address then 404s). Made public, the artists of its works are notified; made private, every notification naming it is withdrawn. ${OWNER_ONLY}`,
        security: bearerAuth,
        params: CollectionIdParams,
        body: UpdateCollectionBody,
        response: { 200: CollectionResponse, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request, reply) =>
      sendJson(reply, { collection: await collections.update(request.userId!, request.params.id, request.body) }),
  );

  app.delete(
    '/collections/:id',
    {
      preHandler: guards.requireUser,
      schema: {
        tags: TAGS,
        summary: 'Delete your collection',
        description: `The collection goes; its works stay where they are. ${OWNER_ONLY.replace(' Answers the collection after the change.', '')}`,
        security: bearerAuth,
        params: CollectionIdParams,
        response: { 204: { description: 'Deleted', type: 'null' }, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request, reply) => {
      await collections.remove(request.userId!, request.params.id);
      return reply.code(204).send(null);
    },
  );

  app.get(
    '/collections/:id/works',
    {
      preHandler: guards.optionalUser,
      schema: {
        tags: TAGS,
        summary: "A collection's works, in order",
        description: `The works in the owner's order, each with its note, by keyset (cursor, limit): a collection of 10,000 works pages like any list. \`saved\`: your bookmarks, the newest saved first (signed in). ${SEEN}`,
        params: CollectionIdParams,
        querystring: CollectionWorksQuery,
        response: { 200: CollectionWorkPage, ...errorResponses(400, 404) },
      },
    },
    async (request, reply) =>
      sendJson(reply, await collections.works(request.params.id, request.query, request.userId ?? null)),
  );

  app.post(
    '/collections/:id/works',
    {
      preHandler: guards.requireUser,
      schema: {
        tags: TAGS,
        summary: 'Add a work to your collection',
        description: `Anyone's work you may see, yours too. after: the work it goes right after (null: first; omitted: last); note: at most ${COLLECTION_LIMITS.noteMax} characters. An artist who does not let others collect their works: 400 (the message names them); a work from another server: 400 "${COLLECTION_ERRORS.remoteWork}"; a work you may not see (a blocked pair among them): 404; already in it: 409; more than ${COLLECTION_LIMITS.worksMax} works: 400. In a public collection, the work's artist is notified (kind collection-work). \`saved\`: bookmarks the work (the bookmark's answers). ${OWNER_ONLY}`,
        security: bearerAuth,
        params: CollectionIdParams,
        body: AddCollectionWorkBody,
        response: { 201: CollectionResponse, ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    async (request, reply) =>
      sendJson(reply.code(201), {
        collection: await collections.addWork(request.userId!, request.params.id, request.body),
      }),
  );

  app.patch(
    '/collections/:id/works/:postId',
    {
      preHandler: guards.requireUser,
      schema: {
        tags: TAGS,
        summary: "Write a work's note",
        description: `note: why the work is here (empty: none). A work not in the collection: 404. ${OWNER_ONLY}`,
        security: bearerAuth,
        params: CollectionWorkParams,
        body: EditCollectionWorkBody,
        response: { 200: CollectionResponse, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request, reply) =>
      sendJson(reply, {
        collection: await collections.editWork(
          request.userId!,
          request.params.id,
          request.params.postId,
          request.body.note,
        ),
      }),
  );

  app.delete(
    '/collections/:id/works/:postId',
    {
      preHandler: guards.requireUser,
      schema: {
        tags: TAGS,
        summary: 'Take a work out of a collection',
        description: `The collection's owner, or the work's artist (from someone's public collection): anyone else 403 "${COLLECTION_ERRORS.notOwnerOrArtist}"; a private collection not yours, or an unknown one, 404; a work not in it 404. \`saved\`: removes your bookmark. Answers the collection.`,
        security: bearerAuth,
        params: CollectionWorkParams,
        response: { 200: CollectionResponse, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request, reply) =>
      sendJson(reply, {
        collection: await collections.removeWork(request.userId!, request.params.id, request.params.postId),
      }),
  );

  app.post(
    '/collections/:id/works/:postId/move',
    {
      preHandler: guards.requireUser,
      schema: {
        tags: TAGS,
        summary: 'Move a work within your collection',
        description: `One move per request (drag and keyboard alike): after is the work it goes right after, null to make it first. after not in the collection: 400 "${COLLECTION_ERRORS.afterNotInCollection}"; itself: 400. A work not in the collection: 404. ${OWNER_ONLY}`,
        security: bearerAuth,
        params: CollectionWorkParams,
        body: MoveCollectionWorkBody,
        response: { 200: CollectionResponse, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request, reply) =>
      sendJson(reply, {
        collection: await collections.moveWork(
          request.userId!,
          request.params.id,
          request.params.postId,
          request.body.after,
        ),
      }),
  );

  app.get(
    '/posts/:postId/collections',
    {
      preHandler: guards.requireUser,
      schema: {
        tags: TAGS,
        summary: 'Which of your collections hold a work',
        description:
          'Whether the work is in your Saved, and the ids of your collections holding it (the "Save to…" menu). A work you may not see: 404.',
        security: bearerAuth,
        params: PostIdParams,
        response: { 200: PostCollections, ...errorResponses(401, 404) },
      },
    },
    async (request, reply) => sendJson(reply, await collections.ofPost(request.params.postId, request.userId!)),
  );
};
